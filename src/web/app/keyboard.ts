/**
 * The page's keyboard shortcuts (the `?` overlay lists them): `c` compose, `/` search, Escape
 * back, ↑ in an empty Message box edits my last message, `r` replies to the selected message,
 * `n` opens the next unread topic, `j`/`k` or the arrows move the selection. None fires while
 * typing in a field (except Escape) nor with Ctrl, Alt or Meta held.
 */
import { useEffect, useRef } from 'preact/hooks';
import { sameTopic, type Narrow } from '../state/narrow';
import type { UnreadState } from '../state/unread';
import type { Drawers } from './drawers';
import { go } from './routing';
import type { ChatState } from './store';

export const SHORTCUTS: readonly (readonly [keys: string, action: string])[] = [
  ['c', 'Compose a message'],
  ['/', 'Search'],
  ['Esc', 'Back: close the dialog, the drawer or compose, then leave the view'],
  ['↑', 'Edit your last message (in an empty Message box)'],
  ['r', 'Reply to the selected message'],
  ['n', 'Next unread topic'],
  ['j / ↓', 'Select the next message'],
  ['k / ↑', 'Select the previous message'],
  ['?', 'Show these shortcuts'],
];

export interface ShortcutPanels {
  drawers: Drawers;
  showHelp: () => void;
}

const FEED_MESSAGES = '.feed article[data-message-id]';

function messageBox(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>('.compose textarea');
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select') !== null);
}

function selectedMessage(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`${FEED_MESSAGES}[data-selected]`);
}

/** Moves the selection by `step` messages (from the newest when none is selected), focusing it. */
function moveSelection(step: number): void {
  const all = [...document.querySelectorAll<HTMLElement>(FEED_MESSAGES)];
  if (all.length === 0) return;
  const current = selectedMessage();
  const index = current ? all.indexOf(current) : -1;
  const next = index < 0 ? all[all.length - 1] : all[Math.min(all.length - 1, Math.max(0, index + step))];
  if (!next) return;
  current?.removeAttribute('data-selected');
  next.setAttribute('data-selected', '');
  next.tabIndex = -1;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

/** Opens the Edit dialog of my newest message in the view, through its actions menu. */
function editLastMessage(state: ChatState): boolean {
  const myId = state.snapshot?.me.user_id;
  const mine = state.list.messages.filter((message) => message.sender_id === myId && message.localId === undefined).at(-1);
  const actions = mine && document.querySelector<HTMLElement>(`${FEED_MESSAGES}[data-message-id="${mine.id}"] .message-actions-button`);
  if (!actions) return false;
  actions.click();
  // The menu renders after this event; its Edit item then opens the dialog.
  setTimeout(() => {
    const edit = [...document.querySelectorAll<HTMLElement>('[role="menu"] [role="menuitem"]')].find((item) => item.textContent === 'Edit');
    if (edit) edit.click();
    else actions.click();
  });
  return true;
}

/** The oldest unread topic other than the one shown. */
export function nextUnreadTopic(unread: UnreadState, narrow: Narrow): Narrow | null {
  const ids = [...unread.messages.keys()].sort((a, b) => a - b);
  for (const id of ids) {
    const place = unread.messages.get(id);
    if (place?.kind !== 'stream') continue;
    const shown = narrow.kind === 'topic' && narrow.streamId === place.streamId && sameTopic(narrow.topic, place.topic);
    if (!shown) return { kind: 'topic', streamId: place.streamId, topic: place.topic };
  }
  return null;
}

/** Escape, outside any dialog or menu (those close themselves): one step back. */
function goBack(event: KeyboardEvent, state: ChatState, panels: ShortcutPanels): void {
  if (document.querySelector('dialog[open]')) return;
  if (panels.drawers.open !== null) panels.drawers.close();
  else if (isTyping(event.target) && event.target instanceof HTMLElement) event.target.blur();
  else if (state.narrow.kind !== 'all') go({ kind: 'all' });
  else return;
  event.preventDefault();
}

function onShortcut(event: KeyboardEvent, state: ChatState, panels: ShortcutPanels): void {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
  if (event.key === 'Escape') return goBack(event, state, panels);
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (event.key === 'ArrowUp' && target === messageBox() && messageBox()?.value === '') {
    if (editLastMessage(state)) event.preventDefault();
    return;
  }
  if (isTyping(target) || target?.closest('dialog, [role="menu"], [role="listbox"]')) return;
  const onFeedOrPage = target === null || target === document.body || target.matches(FEED_MESSAGES);
  const textarea = messageBox();
  switch (event.key) {
    case 'c':
      textarea?.focus();
      break;
    case '/':
      if (getComputedStyle(document.querySelector('.left-column') ?? document.body).visibility === 'hidden') panels.drawers.show('views');
      document.querySelector<HTMLInputElement>('.search input')?.focus();
      break;
    case 'r': {
      const message = selectedMessage();
      if (!message) return;
      // The compose box follows a clicked message's conversation.
      message.click();
      textarea?.focus();
      break;
    }
    case 'n': {
      const next = nextUnreadTopic(state.unread, state.narrow);
      if (!next) return;
      go(next);
      break;
    }
    case '?':
      panels.showHelp();
      break;
    case 'j':
      moveSelection(1);
      break;
    case 'k':
      moveSelection(-1);
      break;
    case 'ArrowDown':
    case 'ArrowUp':
      if (!onFeedOrPage) return;
      moveSelection(event.key === 'ArrowDown' ? 1 : -1);
      break;
    default:
      return;
  }
  event.preventDefault();
}

export function useShortcuts(state: ChatState, panels: ShortcutPanels): void {
  const latest = useRef({ state, panels });
  latest.current = { state, panels };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onShortcut(event, latest.current.state, latest.current.panels);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);
}
