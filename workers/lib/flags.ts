/** Per-user message flags, stored as a bit set in user_messages.flags (api-notes §c). */
export const MESSAGE_FLAGS = ['read', 'starred', 'collapsed', 'mentioned', 'wildcard_mentioned', 'has_alert_word', 'historical'] as const;

export type MessageFlag = (typeof MESSAGE_FLAGS)[number];

export const FLAG_BIT: Record<MessageFlag, number> = Object.fromEntries(MESSAGE_FLAGS.map((flag, i) => [flag, 1 << i])) as Record<
  MessageFlag,
  number
>;

/** What a stream message the user never received counts as: read history (api-notes §c). */
export const HISTORICAL_FLAGS = FLAG_BIT.read | FLAG_BIT.historical;

export function flagNames(bits: number): MessageFlag[] {
  return MESSAGE_FLAGS.filter((flag) => (bits & FLAG_BIT[flag]) !== 0);
}

// Seven flags: at most 128 sets, each named once.
const namedSets = new Map<number, readonly MessageFlag[]>();

/** flagNames as one frozen array per set of bits, for values many events share. */
export function sharedFlagNames(bits: number): readonly MessageFlag[] {
  let names = namedSets.get(bits);
  if (names === undefined) namedSets.set(bits, (names = Object.freeze(flagNames(bits))));
  return names;
}
