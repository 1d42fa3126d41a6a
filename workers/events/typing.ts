/**
 * Typing notices (SPEC POST /typing, api-notes §d typing): what an action hands to the realm's
 * typing actor (workers/actors/typing.ts), which publishes them and expires unrenewed starts.
 * Nothing about typing is written to the database.
 */

export interface TypingParticipant {
  user_id: number;
  email: string;
}

/** The `typing` event as clients receive it (api-notes §d). */
export type TypingEvent = {
  type: 'typing';
  op: 'start' | 'stop';
  sender: TypingParticipant;
} & ({ message_type: 'private'; recipients: TypingParticipant[] } | { message_type: 'stream'; stream_id: number; topic: string });

export interface TypingNotice {
  /** One expiry per sender and conversation: a new `start` re-arms it, a `stop` cancels it. */
  conversationKey: string;
  event: TypingEvent;
  /** Who receives the event (the issue: the recipients, never the sender). */
  userIds: readonly number[];
}

/** The typing actor as actions see it (actions may not import actors). */
export interface TypingNotifier {
  notify(notice: TypingNotice): void;
}
