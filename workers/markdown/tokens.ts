/**
 * Shapes of the dialect's own marked tokens. They are type aliases (not interfaces) so that they
 * stay assignable to marked's `Tokens.Generic`.
 */
import type { Token, Tokens } from 'marked';

export type WildcardName = 'all' | 'everyone' | 'stream' | 'topic';

export type UserMentionToken = {
  type: 'userMention';
  raw: string;
  /** Silent mentions notify nobody; every mention inside a quote is made silent (api-notes §g). */
  silent: boolean;
  target: { kind: 'user'; userId: number; fullName: string } | { kind: 'wildcard'; name: WildcardName };
};

export type GroupMentionToken = {
  type: 'groupMention';
  raw: string;
  silent: boolean;
  groupId: number;
  groupName: string;
};

export type StreamLinkToken = {
  type: 'streamLink';
  raw: string;
  streamId: number;
  streamName: string;
  topic: string | null;
};

export type EmojiToken = {
  type: 'emoji';
  raw: string;
  /** Name without colons, as shown in the title. */
  name: string;
} & ({ kind: 'unicode'; code: string } | { kind: 'image'; src: string });

export type TimestampToken = {
  type: 'timestamp';
  raw: string;
  text: string;
  /** ISO 8601 UTC form, or null when the text is not a time we understand. */
  datetime: string | null;
};

export type TexToken = {
  type: 'inlineTex';
  raw: string;
  tex: string;
};

export type FencedCodeToken = {
  type: 'fencedCode';
  raw: string;
  /** The language as written after the fence, if any. */
  language: string | null;
  text: string;
};

export type MathBlockToken = {
  type: 'mathBlock';
  raw: string;
  text: string;
};

export type SpoilerToken = {
  type: 'spoiler';
  raw: string;
  header: Token[];
  tokens: Token[];
};

export type DialectListItemToken = {
  type: 'dialectListItem';
  raw: string;
  /** Loose items wrap their paragraphs in <p>, tight ones do not. */
  loose: boolean;
  tokens: Token[];
};

export type DialectListToken = {
  type: 'dialectList';
  raw: string;
  ordered: boolean;
  /** The first item's number as written; ordered lists show it unless it is "1". */
  start: string;
  items: DialectListItemToken[];
};

export type ImagePreviewToken = {
  type: 'imagePreview';
  raw: string;
  href: string;
  title: string | null;
  src: string;
  fullsizeSrc: string | null;
};

export type DialectToken =
  | UserMentionToken
  | GroupMentionToken
  | StreamLinkToken
  | EmojiToken
  | TimestampToken
  | TexToken
  | FencedCodeToken
  | MathBlockToken
  | SpoilerToken
  | DialectListToken
  | DialectListItemToken
  | ImagePreviewToken;

/** Narrow a marked token to one of ours by its `type`. */
export function isToken<K extends DialectToken['type']>(
  token: Token | Tokens.Generic,
  type: K,
): token is Extract<DialectToken, { type: K }> & Tokens.Generic {
  return token.type === type;
}

/** The last character before the text a tokenizer is looking at ('' at the start of a run). */
export function precedingChar(tokens: readonly Token[]): string {
  const last = tokens[tokens.length - 1];
  return last === undefined ? '' : last.raw.slice(-1);
}
