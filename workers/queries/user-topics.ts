import type { Realm } from '../realm';
import type { RegisterState } from '../schemas/register';

/** SPEC Topic visibility policy. */
export const VISIBILITY_POLICY = { NONE: 0, MUTED: 1, UNMUTED: 2 } as const;

export interface UserTopicRow {
  stream_id: number;
  topic: string;
  visibility_policy: number;
  last_updated: number;
}

/** The user's topic policies, as register's `user_topics` (api-notes §e), oldest change first. */
export function userTopicsOf(realm: Realm, userId: number): NonNullable<RegisterState['user_topics']> {
  const rows = realm
    .rows<UserTopicRow, [number]>(
      'SELECT stream_id, topic, visibility_policy, last_updated FROM user_topics WHERE user_id = ? ORDER BY last_updated, stream_id, topic',
    )
    .all(userId);
  return rows.map((row) => ({
    stream_id: row.stream_id,
    topic_name: row.topic,
    last_updated: row.last_updated,
    visibility_policy: row.visibility_policy,
  }));
}

/** The legacy `muted_topics`: [stream_name, topic, timestamp] for each muted topic (api-notes §e). */
export function mutedTopicsOf(realm: Realm, userId: number): [string, string, number][] {
  const rows = realm
    .rows<{ stream_name: string; topic: string; last_updated: number }, [number]>(
      `SELECT s.name AS stream_name, t.topic, t.last_updated FROM user_topics t JOIN streams s ON s.id = t.stream_id
       WHERE t.user_id = ? AND t.visibility_policy = ${VISIBILITY_POLICY.MUTED} ORDER BY t.last_updated, t.stream_id, t.topic`,
    )
    .all(userId);
  return rows.map((row) => [row.stream_name, row.topic, row.last_updated]);
}
