/**
 * A message's quick tools beside its menu: Reply (opens compose on its conversation) and the
 * star, a toggle that stays in sight while the message is starred (messages.css shows the
 * other tools only on hover or keyboard focus).
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../common/api';
import type { Message } from '../common/types';
import { ErrorAlert } from './panels/ui';
import type { ReplyRequests } from './reply';

export function MessageTools({ message, replies }: { message: Message; replies: ReplyRequests }) {
  const [error, setError] = useState('');
  const starred = message.flags.includes('starred');
  // The star turns on when the server's flag event arrives, as in every open page.
  const star = () => {
    setError('');
    api.post('/messages/flags', { messages: [message.id], op: starred ? 'remove' : 'add', flag: 'starred' }).catch((failure: unknown) => {
      setError(failure instanceof ApiError ? failure.message : 'The star was not saved');
    });
  };
  return (
    <span class="message-tools">
      <button type="button" class="message-tool" onClick={() => replies.request({ message, quote: null })}>
        Reply
      </button>
      <button
        type="button"
        class={starred ? 'message-tool star-button starred' : 'message-tool star-button'}
        aria-label="Star"
        aria-pressed={starred}
        title={starred ? 'Starred: click to unstar' : 'Star this message'}
        onClick={star}
      >
        <span aria-hidden="true">{starred ? '★' : '☆'}</span>
      </button>
      <ErrorAlert error={error} />
    </span>
  );
}
