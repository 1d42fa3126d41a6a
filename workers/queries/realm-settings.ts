import { POLICY } from '../lib/policy';
import type { Realm } from '../realm';

/** The realm settings that govern editing, moving and deleting messages. */
export interface MessageEditSettings {
  allow_message_editing: boolean;
  allow_edit_history: boolean;
  edit_topic_policy: number;
  move_messages_between_streams_policy: number;
  delete_own_message_policy: number;
  /** null: no limit (openapi: "Will not be 0"). */
  message_content_edit_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
}

// The public API's defaults for a new organization (7.0): editing allowed for 10 minutes,
// moves within 7 days, topic edits by everyone, stream moves and deleting one's own messages
// by administrators only.
const TEN_MINUTES_S = 600;
const SEVEN_DAYS_S = 7 * 24 * 60 * 60;
export const MESSAGE_EDIT_DEFAULTS: MessageEditSettings = {
  allow_message_editing: true,
  allow_edit_history: true,
  edit_topic_policy: POLICY.EVERYONE,
  move_messages_between_streams_policy: POLICY.ADMINS,
  delete_own_message_policy: POLICY.ADMINS,
  message_content_edit_limit_seconds: TEN_MINUTES_S,
  move_messages_within_stream_limit_seconds: SEVEN_DAYS_S,
  move_messages_between_streams_limit_seconds: SEVEN_DAYS_S,
  message_content_delete_limit_seconds: TEN_MINUTES_S,
};

/**
 * The realm's message-editing settings: those set in the realm row's `settings` JSON, the
 * defaults for the rest. Read from the database on every call (one indexed row): the realm row
 * the shard caches at open would miss a later change.
 */
export function messageEditSettings(realm: Realm): MessageEditSettings {
  const row = realm.stmt('SELECT settings FROM realm WHERE id = 1').get() as { settings: string };
  const stored = parseObject(row.settings);
  const settings: MessageEditSettings = { ...MESSAGE_EDIT_DEFAULTS };
  for (const key of ['allow_message_editing', 'allow_edit_history'] as const) {
    const value = stored[key];
    if (typeof value === 'boolean') settings[key] = value;
  }
  for (const key of ['edit_topic_policy', 'move_messages_between_streams_policy', 'delete_own_message_policy'] as const) {
    const value = stored[key];
    if (typeof value === 'number' && Number.isInteger(value)) settings[key] = value;
  }
  for (const key of [
    'message_content_edit_limit_seconds',
    'move_messages_within_stream_limit_seconds',
    'move_messages_between_streams_limit_seconds',
    'message_content_delete_limit_seconds',
  ] as const) {
    const value = stored[key];
    if (value === null || (typeof value === 'number' && Number.isInteger(value) && value > 0)) settings[key] = value;
  }
  return settings;
}

function parseObject(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
