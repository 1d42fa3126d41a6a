import { errors } from '../lib/errors';
import { mutedTopicsOf, VISIBILITY_POLICY } from '../queries/user-topics';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { accessStreamById } from '../queries/stream-access';

const POLICIES: readonly number[] = Object.values(VISIBILITY_POLICY);

/**
 * POST /user_topics: sets (1, 2) or removes (0) the user's policy for a topic, which need not
 * have any message yet (SPEC). Sends `user_topic` and the legacy `muted_topics` list; the queue
 * decides which one it gets (api-notes §d).
 */
export async function doSetTopicVisibility(realm: Realm, user: UserRow, streamId: number, rawTopic: string, policy: number): Promise<void> {
  if (!POLICIES.includes(policy)) throw errors.invalidVisibilityPolicy();
  const stream = accessStreamById(realm, user, streamId, false);
  const topic = rawTopic.trim();
  const lastUpdated = Math.floor(realm.clock.now() / 1000);
  await realm.transact((tx) => {
    if (policy === VISIBILITY_POLICY.NONE) {
      tx.realm.stmt('DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic = ?').run(user.id, stream.id, topic);
    } else {
      tx.realm
        .stmt(
          `INSERT INTO user_topics (user_id, stream_id, topic, visibility_policy, last_updated) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (user_id, stream_id, topic) DO UPDATE SET topic = excluded.topic,
             visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
        )
        .run(user.id, stream.id, topic, policy, lastUpdated);
    }
    tx.publish(
      { type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: lastUpdated, visibility_policy: policy },
      [user.id],
    );
    tx.publish({ type: 'muted_topics', muted_topics: mutedTopicsOf(tx.realm, user.id) }, [user.id]);
  });
}
