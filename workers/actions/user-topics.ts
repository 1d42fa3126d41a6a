import { errors } from '../lib/errors';
import { mutedTopicsOf, VISIBILITY_POLICY } from '../queries/user-topics';
import type { UserRow } from '../queries/users';
import type { Realm } from '../realm';
import { accessStreamById, accessStreamByName } from '../queries/stream-access';
import { streamById, streamByName, type StreamRow } from '../queries/streams';

type VisibilityPolicy = (typeof VISIBILITY_POLICY)[keyof typeof VISIBILITY_POLICY];
const POLICIES: readonly number[] = Object.values(VISIBILITY_POLICY);

function isPolicy(value: number): value is VisibilityPolicy {
  return POLICIES.includes(value);
}

/**
 * POST /user_topics: sets (1, 2) or removes (0) the user's policy for a topic, which need not
 * have any message yet (SPEC). Sends `user_topic` and the legacy `muted_topics` list; the queue
 * decides which one it gets (api-notes §d).
 */
export async function doSetTopicVisibility(realm: Realm, user: UserRow, streamId: number, rawTopic: string, policy: number): Promise<void> {
  if (!isPolicy(policy)) throw errors.invalidVisibilityPolicy();
  const stream = accessStreamById(realm, user, streamId, false);
  await setTopicVisibility(realm, user, stream, rawTopic, policy);
}

/** A stream named by ID or by name, as the legacy muting endpoint takes it. */
export type StreamReference = { id: number } | { name: string };

/**
 * PATCH /users/me/subscriptions/muted_topics (legacy; deprecated at feature level 170): `add`
 * sets the muted policy, `remove` removes the policy, with POST /user_topics' events. Since
 * feature level 169 muting a muted topic, or unmuting one that is not muted, is no error.
 * Unmuting needs no access to the stream, only that it exists (the public server's rule, so a
 * user who lost access can still clean up): an unknown one is `Topic is not muted`.
 */
export async function doUpdateMutedTopic(
  realm: Realm,
  user: UserRow,
  ref: StreamReference,
  rawTopic: string,
  op: 'add' | 'remove',
): Promise<void> {
  if (op === 'add') {
    const stream = 'id' in ref ? accessStreamById(realm, user, ref.id, false) : accessStreamByName(realm, user, ref.name);
    await setTopicVisibility(realm, user, stream, rawTopic, VISIBILITY_POLICY.MUTED);
    return;
  }
  const stream = 'id' in ref ? streamById(realm, ref.id) : streamByName(realm, ref.name);
  if (!stream) throw errors.topicNotMuted();
  await setTopicVisibility(realm, user, stream, rawTopic, VISIBILITY_POLICY.NONE);
}

async function setTopicVisibility(
  realm: Realm,
  user: UserRow,
  stream: StreamRow,
  rawTopic: string,
  policy: VisibilityPolicy,
): Promise<void> {
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
    tx.publish({ type: 'user_topic', stream_id: stream.id, topic_name: topic, last_updated: lastUpdated, visibility_policy: policy }, [
      user.id,
    ]);
    tx.publish({ type: 'muted_topics', muted_topics: mutedTopicsOf(tx.realm, user.id) }, [user.id]);
  });
}
