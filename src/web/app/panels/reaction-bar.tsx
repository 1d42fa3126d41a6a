/** Under a message: its reactions as toggle buttons (`thumbs_up: 1`) and `Add reaction` with its picker. */
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../../common/api';
import type { ReactionBarProps } from './contracts';
import { EmojiGlyph, EmojiPicker } from './emoji-picker';
import type { EmojiChoice } from './picker';
import { emojiLook, groupReactions, reactionLabel, reactionTitle, toggleRequest, type ReactionGroup } from './reactions';
import { ErrorAlert, useAction } from './ui';

export function ReactionBar({ snapshot, message }: ReactionBarProps) {
  const [picking, setPicking] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const action = useAction();
  const groups = useMemo(() => groupReactions(message.reactions, snapshot.me.user_id), [message.reactions, snapshot.me.user_id]);

  const toggle = (group: ReactionGroup) => {
    const request = toggleRequest(message.id, group);
    void action.run(() => api[request.method](request.path, request.params));
  };

  const closePicker = useCallback(() => {
    setPicking(false);
    addButton.current?.focus();
  }, []);

  const pick = (choice: EmojiChoice) => {
    closePicker();
    const existing = groups.find((group) => group.reactionType === choice.reactionType && group.emojiCode === choice.code);
    // Picking an emoji I already reacted with does nothing rather than fail.
    if (existing?.mine) return;
    void action.run(() =>
      api.post(`/messages/${message.id}/reactions`, {
        emoji_name: choice.name,
        emoji_code: choice.code,
        reaction_type: choice.reactionType,
      }),
    );
  };

  return (
    <div class="reaction-bar">
      {groups.map((group) => (
        <button
          key={group.key}
          type="button"
          class={group.mine ? 'reaction reaction-mine' : 'reaction'}
          aria-label={reactionLabel(group)}
          aria-pressed={group.mine}
          title={reactionTitle(group, snapshot.users)}
          onClick={() => toggle(group)}
        >
          <EmojiGlyph
            look={emojiLook(group.reactionType, group.emojiCode, group.emojiName, snapshot.realmEmoji, snapshot.userSettings['emojiset'])}
          />
          <span class="reaction-count" aria-hidden="true">
            {group.userIds.length}
          </span>
        </button>
      ))}
      <span class="reaction-add-wrap">
        <button
          ref={addButton}
          type="button"
          class="reaction-add"
          aria-label="Add reaction"
          title="Add reaction"
          aria-expanded={picking}
          onClick={() => setPicking(!picking)}
        >
          <span aria-hidden="true">☺+</span>
        </button>
        {picking && <EmojiPicker snapshot={snapshot} onPick={pick} onClose={closePicker} />}
      </span>
      <ErrorAlert error={action.error} />
    </div>
  );
}
