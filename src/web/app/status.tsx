/** The live regions: who is typing in this view, and whether the connection is being retried. */
import { useEffect, useState } from 'preact/hooks';
import type { ConnectionState } from '../state/event-loop';
import { typingText, typistsIn } from '../state/typing';
import type { ChatState } from './store';

export function TypingStatus({ state }: { state: ChatState }) {
  const { snapshot, typing, narrow } = state;
  // Typing expires on the clock, and the store re-renders at each expiry; `now` is read per render.
  const ids = typistsIn(typing, narrow, Date.now());
  const names = ids.map((id) => snapshot?.users.get(id)?.full_name ?? 'Someone');
  return (
    <div role="status" class="typing-status">
      {typingText(names)}
    </div>
  );
}

export function ConnectionStatus({ connection }: { connection: ConnectionState }) {
  // Shown after a short delay so a blip that heals at once does not flash.
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (connection !== 'reconnecting') {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), 300);
    return () => clearTimeout(timer);
  }, [connection]);
  return (
    <div role="status" class={visible ? 'connection-status reconnecting' : 'connection-status'}>
      {visible ? 'Reconnecting…' : ''}
    </div>
  );
}
