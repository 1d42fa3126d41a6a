/** One message: sender (once per run), time, the server's HTML, edited marker, reactions and actions. */
import { memo } from 'preact/compat';
import { useState } from 'preact/hooks';
import type { ChatSnapshot } from '../common/types';
import type { ListedMessage } from '../state/message-list';
import { EditHistoryDialog } from './edit-history';
import { offersEditHistory } from './edit-history-versions';
import { MessageHtml } from './message-html';
import { MessageActions, ProfileCard, ReactionBar } from './panels';
import { MessageTools } from './message-tools';
import { requestQuote, type ReplyRequests } from './reply';

export function formatTime(timestamp: number, twentyFourHour: boolean): string {
  return new Date(timestamp * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', hour12: !twentyFourHour });
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

interface MessageItemProps {
  message: ListedMessage;
  snapshot: ChatSnapshot;
  showSender: boolean;
  unread: boolean;
  /** A message that failed to send is sent again or dropped. */
  onUnsent?: (localId: string, choice: 'retry' | 'discard') => void;
  replies: ReplyRequests;
}

function MessageItemBody({ message, snapshot, showSender, unread, onUnsent, replies }: MessageItemProps) {
  const [profileOpen, setProfileOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const showHistory = offersEditHistory(snapshot.realm, message) ? () => setHistoryOpen(true) : undefined;
  const sender = snapshot.users.get(message.sender_id);
  const name = sender?.full_name ?? message.sender_full_name;
  // Only avatars served here: the page's CSP admits no other origin's images.
  const avatarUrl = sender?.avatar_url ?? message.avatar_url;
  const avatar = avatarUrl?.startsWith('/') && !avatarUrl.startsWith('//') ? avatarUrl : null;
  const mentioned = message.flags.includes('mentioned') || message.flags.includes('wildcard_mentioned');
  const classes = [
    'message',
    showSender ? 'first-of-run' : 'continued',
    unread ? 'unread' : '',
    mentioned ? 'mentioned' : '',
    message.sendState ? `send-${message.sendState}` : '',
    message.flags.includes('starred') ? 'starred' : '',
  ];
  const twentyFourHour = snapshot.userSettings['twenty_four_hour_time'] === true;
  return (
    <article
      class={classes.filter(Boolean).join(' ')}
      data-message-id={message.localId === undefined ? message.id : undefined}
      aria-label={`${name}, ${formatTime(message.timestamp, twentyFourHour)}`}
    >
      {showSender && (
        <div class="sender">
          {/* One control for avatar and name: both open the card, the name says whose. */}
          <button type="button" class="sender-button" aria-haspopup="dialog" onClick={() => setProfileOpen(true)}>
            {avatar ? (
              <img class="avatar" src={avatar} alt="" width={32} height={32} />
            ) : (
              <span class="avatar avatar-initials" aria-hidden="true">
                {initials(name)}
              </span>
            )}
            <span class="sender-name">{name}</span>
          </button>
        </div>
      )}
      {profileOpen && (
        <ProfileCard snapshot={snapshot} userId={message.sender_id} fallbackName={name} onClose={() => setProfileOpen(false)} />
      )}
      <time class="message-time" dateTime={new Date(message.timestamp * 1000).toISOString()}>
        {formatTime(message.timestamp, twentyFourHour)}
      </time>
      <MessageHtml
        html={message.match_content ?? message.content}
        class={message.is_me_message ? 'message-content me-message' : 'message-content'}
        myId={snapshot.me.user_id}
        emojiset={snapshot.userSettings['emojiset']}
      />
      {message.last_edit_timestamp !== undefined &&
        (showHistory ? (
          <button type="button" class="edited" aria-haspopup="dialog" title="Show the edit history" onClick={showHistory}>
            (edited)
          </button>
        ) : (
          <span class="edited">(edited)</span>
        ))}
      {historyOpen && <EditHistoryDialog snapshot={snapshot} message={message} onClose={() => setHistoryOpen(false)} />}
      {message.sendState === 'sending' && <span class="send-state">Sending…</span>}
      {message.sendState === 'failed' && (
        <span class="send-state failed">
          <span>Not sent</span>
          {message.localId !== undefined && onUnsent && (
            <>
              <button type="button" onClick={() => onUnsent(message.localId ?? '', 'retry')}>
                Retry
              </button>
              <button type="button" onClick={() => onUnsent(message.localId ?? '', 'discard')}>
                Discard
              </button>
            </>
          )}
        </span>
      )}
      {message.localId === undefined && (
        <div class="message-extras">
          <ReactionBar snapshot={snapshot} message={message} />
          <MessageTools message={message} replies={replies} />
          <MessageActions
            snapshot={snapshot}
            message={message}
            onQuote={(quoted) => void requestQuote(replies, quoted, snapshot)}
            onShowHistory={showHistory}
          />
        </div>
      )}
    </article>
  );
}

/** Re-rendered only when its message, the snapshot or its place in the run changes. */
export const MessageItem = memo(MessageItemBody);
