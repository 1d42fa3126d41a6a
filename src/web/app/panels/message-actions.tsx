/**
 * One message's `Message actions` menu (a menu button: Enter, Space or ArrowDown opens it,
 * arrows move, Escape closes and returns focus). Items the person may not use are left out.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { MessageActionsProps } from './contracts';
import { DeleteDialog, EditDialog, MoveDialog } from './message-dialogs';
import { isResolved, isTopicMuted, messageLink, messagePermissions, toggledResolution } from './permissions';
import { serverNow } from './presence';
import { ErrorAlert, fitInViewport, useAction } from './ui';

type OpenDialog = 'edit' | 'move' | 'delete' | null;

interface MenuItem {
  label: string;
  run: () => void;
}

export function MessageActions({ snapshot, message, onQuote, onShowHistory }: MessageActionsProps) {
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [notice, setNotice] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const action = useAction();

  const may = messagePermissions(snapshot.me, message, snapshot.realm, serverNow(snapshot));
  const starred = message.flags.includes('starred');
  const streamId = message.stream_id;
  const muted = streamId !== undefined && isTopicMuted(snapshot, streamId, message.subject);

  const items: MenuItem[] = [{ label: 'Quote and reply', run: () => onQuote(message) }];
  if (may.edit) items.push({ label: 'Edit', run: () => setDialog('edit') });
  items.push({
    label: starred ? 'Unstar' : 'Star',
    run: () =>
      void action.run(() => api.post('/messages/flags', { messages: [message.id], op: starred ? 'remove' : 'add', flag: 'starred' })),
  });
  if (may.editTopic || may.moveToStream) items.push({ label: 'Move topic', run: () => setDialog('move') });
  if (may.editTopic) {
    items.push({
      label: isResolved(message.subject) ? 'Unresolve topic' : 'Resolve topic',
      run: () =>
        void action.run(() =>
          api.patch(`/messages/${message.id}`, { topic: toggledResolution(message.subject), propagate_mode: 'change_all' }),
        ),
    });
  }
  if (may.muteTopic && streamId !== undefined) {
    items.push({
      label: muted ? 'Unmute topic' : 'Mute topic',
      run: () =>
        void action.run(() => api.post('/user_topics', { stream_id: streamId, topic: message.subject, visibility_policy: muted ? 0 : 1 })),
    });
  }
  if (onShowHistory) items.push({ label: 'Edit history', run: onShowHistory });
  items.push({
    label: 'Copy link to message',
    run: () => {
      const link = messageLink(message, snapshot.me.user_id, `${location.origin}${location.pathname}`);
      void action.run(async () => {
        await navigator.clipboard.writeText(link);
        setNotice('Link copied');
      });
    },
  });
  if (may.delete) items.push({ label: 'Delete', run: () => setDialog('delete') });

  const menuItems = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  // Before paint, so a key pressed right after opening already reaches the menu.
  useLayoutEffect(() => {
    if (!open) return undefined;
    fitInViewport(menu.current);
    menuItems()[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const inside = event.target instanceof Node && (menu.current?.contains(event.target) || button.current?.contains(event.target));
      if (!inside) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => document.removeEventListener('pointerdown', onPointerDown, true);
  }, [open]);

  useEffect(() => {
    if (!notice) return undefined;
    const timer = setTimeout(() => setNotice(''), 2000);
    return () => clearTimeout(timer);
  }, [notice]);

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const all = menuItems();
    const index = all.findIndex((item) => item === document.activeElement);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: all.length - 1 };
    const target = moves[event.key];
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    } else if (target !== undefined) {
      event.preventDefault();
      all[(target + all.length) % all.length]?.focus();
    }
  };

  const closeDialog = () => {
    setDialog(null);
    button.current?.focus();
  };

  return (
    <div class="message-actions">
      <button
        ref={button}
        type="button"
        class="message-actions-button"
        aria-label="Message actions"
        title="Message actions"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        onKeyDown={onButtonKeyDown}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul ref={menu} class="message-actions-menu" role="menu" aria-label="Message actions" onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <li key={item.label} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close(true);
                  item.run();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {notice && (
        <span role="status" class="panel-notice">
          {notice}
        </span>
      )}
      <ErrorAlert error={action.error} />
      {dialog === 'edit' && <EditDialog snapshot={snapshot} message={message} onClose={closeDialog} />}
      {dialog === 'move' && <MoveDialog snapshot={snapshot} message={message} onClose={closeDialog} canMoveStream={may.moveToStream} />}
      {dialog === 'delete' && <DeleteDialog snapshot={snapshot} message={message} onClose={closeDialog} />}
    </div>
  );
}
