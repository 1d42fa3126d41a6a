/** Own status: a short text and an emoji (picked with the reaction picker), saved or cleared by `POST /users/me/status`. */
import { useRef, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { DialogProps } from './contracts';
import { EmojiGlyph, EmojiPicker } from './emoji-picker';
import type { EmojiChoice } from './picker';
import { emojiLook } from './reactions';
import { ErrorAlert, Modal, useAction } from './ui';

/** SPEC POST /users/me/status: at most 60 characters. */
const MAX_STATUS_TEXT = 60;

interface StatusEmoji {
  name: string;
  code: string;
  reactionType: string;
}

export function StatusDialog({ snapshot, onClose }: DialogProps) {
  const current = snapshot.userStatus.get(snapshot.me.user_id);
  const [text, setText] = useState(current?.status_text ?? '');
  const [emoji, setEmoji] = useState<StatusEmoji | null>(
    current?.emoji_name
      ? { name: current.emoji_name, code: current.emoji_code ?? '', reactionType: current.reaction_type ?? 'unicode_emoji' }
      : null,
  );
  const [picking, setPicking] = useState(false);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const action = useAction();

  const closePicker = () => {
    setPicking(false);
    emojiButton.current?.focus();
  };

  const pick = (choice: EmojiChoice) => {
    setEmoji({ name: choice.name, code: choice.code, reactionType: choice.reactionType });
    closePicker();
  };

  const save = async (event: Event) => {
    event.preventDefault();
    const params = emoji
      ? { status_text: text.trim(), emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.reactionType }
      : { status_text: text.trim(), emoji_name: '' };
    if (await action.run(() => api.post('/users/me/status', params))) onClose();
  };

  const clear = async () => {
    if (await action.run(() => api.post('/users/me/status', { status_text: '', emoji_name: '' }))) onClose();
  };

  return (
    <Modal title="Set status" onClose={onClose} class="status-dialog">
      <form onSubmit={save} class="panel-form">
        <div class="status-row">
          <span class="reaction-add-wrap">
            <button
              ref={emojiButton}
              type="button"
              aria-label={emoji ? `Status emoji: ${emoji.name}` : 'Choose status emoji'}
              aria-expanded={picking}
              onClick={() => setPicking(!picking)}
            >
              {emoji ? (
                <EmojiGlyph
                  look={emojiLook(emoji.reactionType, emoji.code, emoji.name, snapshot.realmEmoji, snapshot.userSettings['emojiset'])}
                />
              ) : (
                <span aria-hidden="true">☺</span>
              )}
            </button>
            {picking && <EmojiPicker snapshot={snapshot} onPick={pick} onClose={closePicker} label="Status emoji" />}
          </span>
          <label class="status-text">
            Status
            <input
              type="text"
              maxLength={MAX_STATUS_TEXT}
              value={text}
              placeholder="What are you up to?"
              onInput={(event) => setText(event.currentTarget.value)}
            />
          </label>
        </div>
        {emoji && (
          <button type="button" class="panel-link-button" onClick={() => setEmoji(null)}>
            Remove emoji
          </button>
        )}
        <ErrorAlert error={action.error} />
        <div class="panel-buttons">
          <button type="submit" disabled={action.busy}>
            Save status
          </button>
          <button type="button" disabled={action.busy} onClick={() => void clear()}>
            Clear status
          </button>
        </div>
      </form>
    </Modal>
  );
}
