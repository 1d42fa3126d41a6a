/**
 * The `Message` textbox: Enter or Ctrl+Enter sends (per enter_sends), `:emoji`, `@mention` and
 * `#stream` completion in a keyboard-navigable listbox, and files dropped or pasted into it uploaded.
 */
import { useRef, useState } from 'preact/hooks';
import { emojiImageUrl, emojiList, emojiText } from '../common/emoji';
import type { ChatSnapshot } from '../common/types';
import { sortedSubscriptions } from '../state/snapshot';
import { complete, emojiChoices, mentionChoices, queryAt, streamChoices, type Choice, type CompletionQuery } from './completion';

const LISTBOX_NAMES: Record<CompletionQuery['kind'], string> = { emoji: 'Emoji', mention: 'People', stream: 'Streams' };

interface MessageBoxProps {
  snapshot: ChatSnapshot | null;
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  onFiles: (files: File[]) => void;
  textarea: { current: HTMLTextAreaElement | null };
}

export function MessageBox({ snapshot, value, onChange, onSend, onFiles, textarea }: MessageBoxProps) {
  const [query, setQuery] = useState<CompletionQuery | null>(null);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  const caret = useRef(0);
  // Closing the list a moment after the box loses focus; cancelled when it has the focus again,
  // so a blur long past cannot close a list opened since.
  const closing = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelClosing = () => {
    if (closing.current !== null) clearTimeout(closing.current);
    closing.current = null;
  };
  const enterSends = snapshot?.userSettings['enter_sends'] !== false;

  const choices: Choice[] =
    !query || !snapshot
      ? []
      : query.kind === 'emoji'
        ? emojiChoices(query.text, emojiList())
        : query.kind === 'stream'
          ? streamChoices(query.text, sortedSubscriptions(snapshot))
          : mentionChoices(query.text, snapshot.users.values());
  const open = choices.length > 0;

  const update = (next: string, position: number) => {
    cancelClosing();
    caret.current = position;
    onChange(next);
    setQuery(queryAt(next, position));
    setActive(0);
  };

  const take = (choice: Choice) => {
    if (!query) return;
    const result = complete(value, caret.current, query, choice);
    onChange(result.value);
    setQuery(null);
    requestAnimationFrame(() => {
      textarea.current?.focus();
      textarea.current?.setSelectionRange(result.caret, result.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        const choice = choices[active];
        if (choice) {
          event.preventDefault();
          take(choice);
          return;
        }
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setQuery(null);
        return;
      }
    }
    if (event.key !== 'Enter' || event.isComposing) return;
    const sends = enterSends ? !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey : event.ctrlKey || event.metaKey;
    if (sends) {
      event.preventDefault();
      onSend();
    }
  };

  const filesOf = (list: FileList | null | undefined) => (list ? [...list] : []);

  return (
    <div class={dragging ? 'message-box dragging' : 'message-box'}>
      <textarea
        ref={textarea}
        aria-label="Message"
        placeholder={enterSends ? 'Message (Enter sends, Shift+Enter for a new line)' : 'Message (Ctrl+Enter sends)'}
        rows={3}
        value={value}
        aria-autocomplete="list"
        aria-controls={open ? 'compose-completions' : undefined}
        aria-activedescendant={open ? `completion-${active}` : undefined}
        onInput={(event) => update(event.currentTarget.value, event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onFocus={cancelClosing}
        onBlur={() => {
          cancelClosing();
          closing.current = setTimeout(() => {
            closing.current = null;
            setQuery(null);
          }, 150);
        }}
        onPaste={(event) => {
          const files = filesOf(event.clipboardData?.files);
          if (files.length > 0) {
            event.preventDefault();
            onFiles(files);
          }
        }}
        onDragOver={(event) => {
          if (event.dataTransfer?.types.includes('Files')) {
            event.preventDefault();
            setDragging(true);
          }
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          const files = filesOf(event.dataTransfer?.files);
          setDragging(false);
          if (files.length > 0) {
            event.preventDefault();
            onFiles(files);
          }
        }}
      />
      {open && (
        <ul class="completions" id="compose-completions" role="listbox" aria-label={LISTBOX_NAMES[query?.kind ?? 'mention']}>
          {choices.map((choice, index) => (
            <li
              key={choice.insert}
              id={`completion-${index}`}
              role="option"
              aria-selected={index === active ? 'true' : 'false'}
              onMouseDown={(event) => {
                event.preventDefault();
                take(choice);
              }}
            >
              {choice.code !== undefined && (
                <span class="completion-emoji" aria-hidden="true">
                  <CompletionEmoji code={choice.code} emojiset={snapshot?.userSettings['emojiset']} />
                </span>
              )}
              {choice.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A completion's emoji: its image in the person's set, or its characters. */
function CompletionEmoji({ code, emojiset }: { code: string; emojiset: unknown }) {
  const url = emojiImageUrl(code, emojiset);
  return url === null ? <>{emojiText(code)}</> : <img class="emoji-image" src={url} alt="" />;
}
