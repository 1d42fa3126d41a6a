/** Per-user message flags, stored as a bit set in user_messages.flags (api-notes §c). */
export const MESSAGE_FLAGS = [
  'read',
  'starred',
  'collapsed',
  'mentioned',
  'wildcard_mentioned',
  'has_alert_word',
  'historical',
] as const;

export type MessageFlag = (typeof MESSAGE_FLAGS)[number];

export const FLAG_BIT: Record<MessageFlag, number> = Object.fromEntries(
  MESSAGE_FLAGS.map((flag, i) => [flag, 1 << i]),
) as Record<MessageFlag, number>;

export function flagNames(bits: number): MessageFlag[] {
  return MESSAGE_FLAGS.filter((flag) => (bits & FLAG_BIT[flag]) !== 0);
}
