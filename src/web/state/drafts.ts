/**
 * Compose drafts, one per conversation, kept in localStorage so a reload (or a crash) loses
 * nothing: restored when the conversation is opened again, cleared when the message is sent.
 * Keyed by the signed-in user too, as two people may share a browser.
 */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type DraftConversation = { type: 'stream'; stream: string; topic: string } | { type: 'direct'; to: string };

export function draftKey(userId: number, conversation: DraftConversation): string {
  const where =
    conversation.type === 'stream'
      ? `stream:${conversation.stream.trim().toLowerCase()}:${conversation.topic.trim().toLowerCase()}`
      : `direct:${normalizeRecipients(conversation.to)}`;
  return `drafts/${userId}/${where}`;
}

/** Do `a` and `b` name one conversation (and so one draft)? */
export function sameConversation(a: DraftConversation, b: DraftConversation): boolean {
  return draftKey(0, a) === draftKey(0, b);
}

/** "bo@x, ann@x" and "ann@x,bo@x" are the same conversation. */
function normalizeRecipients(to: string): string {
  return to
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
    .sort()
    .join(',');
}

export class Drafts {
  constructor(
    private readonly storage: DraftStorage,
    private readonly userId: number,
  ) {}

  load(conversation: DraftConversation): string {
    try {
      return this.storage.getItem(draftKey(this.userId, conversation)) ?? '';
    } catch {
      return '';
    }
  }

  /** An empty text removes the draft. */
  save(conversation: DraftConversation, text: string): void {
    const key = draftKey(this.userId, conversation);
    try {
      if (text.trim() === '') this.storage.removeItem(key);
      else this.storage.setItem(key, text);
    } catch {
      // Storage full or disabled: the draft lives only in the open compose box.
    }
  }

  clear(conversation: DraftConversation): void {
    this.save(conversation, '');
  }
}
