/**
 * What the client core (the shell, message list and compose) gives the panels, and what the
 * panels export to it. Panels read the snapshot and change the server through `api`; the
 * change comes back as an event that the core applies, so no panel keeps state of its own
 * about the server.
 */
import type { ChatSnapshot, Message } from '../../common/types';

/**
 * Views are addressed by the location hash, so links, the back button and reloads work, and a
 * panel opens a view with a plain `<a href>`:
 *   #narrow/all                      all messages
 *   #narrow/stream/<id>              a stream;  #narrow/stream/<id>/topic/<hashEncode(topic)>
 *   #narrow/dm/<id>,<id>             a direct conversation (the other people's IDs, ascending)
 *   #narrow/is/starred  #narrow/is/mentioned  #narrow/search/<hashEncode(words)>
 *   any of them + /near/<message id>: a link to one message, which opens its conversation
 * `hashEncode` is the server's encoding of narrow URLs ("a b" -> "a.20b", api-notes §g); the
 * page also reads the addresses the server renders in messages (`/#narrow/stream/12-name/…`).
 */
export const HASH_PREFIX = '#narrow/';

export interface SnapshotProps {
  snapshot: ChatSnapshot;
}

/** Right column: people with presence and status. */
export type PeopleListProps = SnapshotProps;

/** Under one message: its reactions (`thumbs_up: 1` buttons) and the `Add reaction` button. */
export interface ReactionBarProps extends SnapshotProps {
  message: Message;
}

/** One message's menu: quote and reply, edit, delete, star, move or resolve its topic, mute its topic, its edit history. */
export interface MessageActionsProps extends SnapshotProps {
  message: Message;
  /** Opens compose on the message's conversation, with the message quoted. */
  onQuote: (message: Message) => void;
  /** Opens the message's edit history; absent when the message has none the person may see. */
  onShowHistory?: (() => void) | undefined;
}

/** A person's card, opened from a sender's name or avatar. */
export interface ProfileCardProps extends SnapshotProps {
  userId: number;
  /** The name the message carried, for a sender the page no longer knows. */
  fallbackName: string;
  onClose: () => void;
}

/** A dialog the shell opens from its top bar: personal settings, status, streams, administration. */
export interface DialogProps extends SnapshotProps {
  onClose: () => void;
}
