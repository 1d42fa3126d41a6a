/**
 * Replying from a message: the message view asks, compose answers by opening the message's
 * conversation (and, for a quote, adding the quoted text to what is typed there).
 */
import { api } from '../common/api';
import type { ChatSnapshot, Message } from '../common/types';
import { messageLink } from './panels/permissions';

export interface ReplyRequest {
  message: Message;
  /** Markdown to add to the compose box, or null to only open the conversation. */
  quote: string | null;
}

export class ReplyRequests {
  private readonly listeners = new Set<(request: ReplyRequest) => void>();

  request(request: ReplyRequest): void {
    for (const listener of this.listeners) listener(request);
  }

  subscribe(listener: (request: ReplyRequest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * The public API's quote: a silent mention of the sender, a link to the message, and its
 * Markdown (GET /messages/{id} `raw_content`) in a quote block whose fence is longer than any
 * fence inside it.
 */
export function quoteMarkdown(message: Message, raw: string, snapshot: ChatSnapshot, base: string): string {
  const name = snapshot.users.get(message.sender_id)?.full_name ?? message.sender_full_name;
  const longestFence = Math.max(2, ...(raw.match(/`{3,}/g) ?? []).map((fence) => fence.length));
  const fence = '`'.repeat(longestFence + 1);
  const link = messageLink(message, snapshot.me.user_id, base);
  return `@_**${name}|${message.sender_id}** [said](${link}):\n${fence}quote\n${raw}\n${fence}\n`;
}

export async function fetchQuote(message: Message, snapshot: ChatSnapshot): Promise<string> {
  const answer = await api.get<{ raw_content: string }>(`/messages/${message.id}`, {});
  return quoteMarkdown(message, answer.raw_content, snapshot, `${location.origin}${location.pathname}`);
}

/** Quote and reply; should the message's Markdown not arrive, the conversation still opens. */
export async function requestQuote(replies: ReplyRequests, message: Message, snapshot: ChatSnapshot): Promise<void> {
  try {
    replies.request({ message, quote: await fetchQuote(message, snapshot) });
  } catch {
    replies.request({ message, quote: null });
  }
}
