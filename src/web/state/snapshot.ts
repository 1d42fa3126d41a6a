/**
 * The ChatSnapshot: built once from the register response, then replaced by a new object on
 * every event that changes it. Parts an event does not touch are shared with the previous
 * snapshot, so a view that compares them by identity re-renders only what changed.
 */
import type { ChatSnapshot, Presence, Stream, Subscription, User, UserStatus, Linkifier, RealmEmoji } from '../common/types';
import type { RegisterResponse, ServerEvent } from './events';

/** The key of `topicPolicies` (the contract in common/types.ts): the topic as the server spells it. */
export function topicKey(streamId: number, topic: string): string {
  return `${streamId}:${topic}`;
}

/** `realm_*` and the server limits (max_message_length …) that register returns at the top level. */
function realmKeys(register: RegisterResponse): Record<string, unknown> {
  const realm: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(register)) {
    if (
      key.startsWith('realm_') &&
      key !== 'realm_users' &&
      key !== 'realm_non_active_users' &&
      key !== 'realm_emoji' &&
      key !== 'realm_linkifiers'
    )
      realm[key] = value;
    else if (key.startsWith('max_') || key.startsWith('server_')) realm[key] = value;
  }
  return realm;
}

export function buildSnapshot(register: RegisterResponse, nowSeconds: number): ChatSnapshot {
  const users = new Map<number, User>();
  for (const user of register.realm_users) users.set(user.user_id, { ...user, is_active: true });
  for (const user of register.realm_non_active_users ?? []) users.set(user.user_id, { ...user, is_active: false });
  const me = users.get(register.user_id);
  if (!me) throw new Error('The register response does not list its own user');
  const subscriptions = new Map<number, Subscription>(register.subscriptions.map((sub) => [sub.stream_id, sub]));
  const streams = new Map<number, Stream>((register.streams ?? register.subscriptions).map((stream) => [stream.stream_id, stream]));
  for (const sub of register.subscriptions) if (!streams.has(sub.stream_id)) streams.set(sub.stream_id, sub);
  const presences = new Map<number, Presence>();
  for (const [id, presence] of Object.entries(register.presences ?? {})) presences.set(Number(id), presence);
  const userStatus = new Map<number, UserStatus>();
  for (const [id, status] of Object.entries(register.user_status ?? {})) userStatus.set(Number(id), status);
  const topicPolicies = new Map<string, number>();
  for (const entry of register.user_topics ?? [])
    if (entry.visibility_policy !== 0) topicPolicies.set(topicKey(entry.stream_id, entry.topic_name), entry.visibility_policy);
  return {
    me,
    users,
    streams,
    subscriptions,
    realm: realmKeys(register),
    realmEmoji: register.realm_emoji ?? {},
    linkifiers: register.realm_linkifiers ?? [],
    userSettings: register.user_settings ?? {},
    presences,
    userStatus,
    topicPolicies,
    serverTimeOffset: register.server_timestamp === undefined ? 0 : register.server_timestamp - nowSeconds,
  };
}

function withEntry<K, V>(map: ReadonlyMap<K, V>, key: K, value: V | undefined): Map<K, V> {
  const next = new Map(map);
  if (value === undefined) next.delete(key);
  else next.set(key, value);
  return next;
}

function applyRealmUser(snapshot: ChatSnapshot, op: string | undefined, person: Partial<User> & { user_id: number }): ChatSnapshot {
  const current = snapshot.users.get(person.user_id);
  let next: User | undefined;
  if (op === 'add') next = { ...(person as User), is_active: person.is_active ?? true };
  else if (op === 'remove' && current) next = { ...current, is_active: false };
  else if (op === 'update' && current) {
    next = { ...current, ...person };
    // A role change arrives as `role` alone; the booleans the page reads follow from it.
    if (person.role !== undefined)
      next = { ...next, is_owner: person.role === 100, is_admin: person.role <= 200, is_guest: person.role === 600 };
  }
  if (!next) return snapshot;
  const users = withEntry(snapshot.users, person.user_id, next);
  return { ...snapshot, users, me: person.user_id === snapshot.me.user_id ? next : snapshot.me };
}

function applySubscription(snapshot: ChatSnapshot, event: ServerEvent): ChatSnapshot {
  switch (event.op) {
    case 'add': {
      const subscriptions = new Map(snapshot.subscriptions);
      const streams = new Map(snapshot.streams);
      for (const sub of event['subscriptions'] as Subscription[]) {
        subscriptions.set(sub.stream_id, sub);
        streams.set(sub.stream_id, { ...(streams.get(sub.stream_id) ?? sub) });
      }
      return { ...snapshot, subscriptions, streams };
    }
    case 'remove': {
      const subscriptions = new Map(snapshot.subscriptions);
      for (const sub of event['subscriptions'] as { stream_id: number }[]) subscriptions.delete(sub.stream_id);
      return { ...snapshot, subscriptions };
    }
    case 'update': {
      const streamId = event['stream_id'] as number;
      const current = snapshot.subscriptions.get(streamId);
      if (!current) return snapshot;
      const property = event['property'] as string;
      const value = event['value'];
      // `in_home_view` is the legacy inverse of `is_muted`.
      const change = property === 'in_home_view' ? { is_muted: !value } : { [property]: value };
      return { ...snapshot, subscriptions: withEntry(snapshot.subscriptions, streamId, { ...current, ...change }) };
    }
    case 'peer_add':
    case 'peer_remove': {
      const userIds = event['user_ids'] as number[];
      let subscriptions: Map<number, Subscription> | null = null;
      for (const streamId of event['stream_ids'] as number[]) {
        const current = snapshot.subscriptions.get(streamId);
        if (!current) continue;
        const members = new Set(current.subscribers ?? []);
        for (const userId of userIds) {
          if (event.op === 'peer_add') members.add(userId);
          else members.delete(userId);
        }
        subscriptions ??= new Map(snapshot.subscriptions);
        subscriptions.set(streamId, { ...current, subscribers: [...members].sort((a, b) => a - b) });
      }
      return subscriptions ? { ...snapshot, subscriptions } : snapshot;
    }
    default:
      return snapshot;
  }
}

function applyStream(snapshot: ChatSnapshot, event: ServerEvent): ChatSnapshot {
  switch (event.op) {
    case 'create': {
      const streams = new Map(snapshot.streams);
      for (const stream of event['streams'] as Stream[]) streams.set(stream.stream_id, stream);
      return { ...snapshot, streams };
    }
    case 'delete': {
      const streams = new Map(snapshot.streams);
      const subscriptions = new Map(snapshot.subscriptions);
      for (const stream of event['streams'] as Stream[]) {
        streams.delete(stream.stream_id);
        subscriptions.delete(stream.stream_id);
      }
      return { ...snapshot, streams, subscriptions };
    }
    case 'update': {
      const streamId = event['stream_id'] as number;
      const change: Record<string, unknown> = { [event['property'] as string]: event['value'] };
      for (const extra of ['rendered_description', 'history_public_to_subscribers', 'is_web_public'])
        if (extra in event) change[extra] = event[extra];
      const stream = snapshot.streams.get(streamId);
      const sub = snapshot.subscriptions.get(streamId);
      return {
        ...snapshot,
        streams: stream ? withEntry(snapshot.streams, streamId, { ...stream, ...change }) : snapshot.streams,
        subscriptions: sub ? withEntry(snapshot.subscriptions, streamId, { ...sub, ...change }) : snapshot.subscriptions,
      };
    }
    default:
      return snapshot;
  }
}

/** A presence event carries per-client times; the snapshot keeps the slim aggregate. */
function applyPresence(snapshot: ChatSnapshot, event: ServerEvent): ChatSnapshot {
  const userId = event['user_id'] as number;
  const clients = Object.values((event['presence'] ?? {}) as Record<string, { status: string; timestamp: number }>);
  const current = snapshot.presences.get(userId) ?? { active_timestamp: 0, idle_timestamp: 0 };
  let { active_timestamp, idle_timestamp } = current;
  for (const client of clients) {
    if (client.status === 'active') active_timestamp = Math.max(active_timestamp, client.timestamp);
    idle_timestamp = Math.max(idle_timestamp, client.timestamp);
  }
  return { ...snapshot, presences: withEntry(snapshot.presences, userId, { active_timestamp, idle_timestamp }) };
}

function applyUserStatus(snapshot: ChatSnapshot, event: ServerEvent): ChatSnapshot {
  const userId = event['user_id'] as number;
  const next: UserStatus = { ...snapshot.userStatus.get(userId) };
  for (const key of ['status_text', 'emoji_name', 'emoji_code', 'reaction_type', 'away'] as const) {
    if (key in event) Object.assign(next, { [key]: event[key] });
  }
  return { ...snapshot, userStatus: withEntry(snapshot.userStatus, userId, next) };
}

/** One event applied: the same snapshot when nothing the page keeps changed. */
export function applySnapshotEvent(snapshot: ChatSnapshot, event: ServerEvent): ChatSnapshot {
  switch (event.type) {
    case 'realm_user':
      return applyRealmUser(snapshot, event.op, event['person'] as Partial<User> & { user_id: number });
    case 'subscription':
      return applySubscription(snapshot, event);
    case 'stream':
      return applyStream(snapshot, event);
    case 'presence':
      return applyPresence(snapshot, event);
    case 'user_status':
      return applyUserStatus(snapshot, event);
    case 'user_settings':
      if (event.op !== 'update') return snapshot;
      return { ...snapshot, userSettings: { ...snapshot.userSettings, [event['property'] as string]: event['value'] } };
    case 'user_topic': {
      const key = topicKey(event['stream_id'] as number, event['topic_name'] as string);
      const policy = event['visibility_policy'] as number;
      return { ...snapshot, topicPolicies: withEntry(snapshot.topicPolicies, key, policy === 0 ? undefined : policy) };
    }
    case 'realm':
      if (event.op === 'update')
        return { ...snapshot, realm: { ...snapshot.realm, [`realm_${event['property'] as string}`]: event['value'] } };
      if (event.op === 'update_dict') {
        const data = Object.fromEntries(
          Object.entries(event['data'] as Record<string, unknown>).map(([key, value]) => [`realm_${key}`, value]),
        );
        return { ...snapshot, realm: { ...snapshot.realm, ...data } };
      }
      return snapshot;
    case 'realm_emoji':
      return event.op === 'update' ? { ...snapshot, realmEmoji: event['realm_emoji'] as Record<string, RealmEmoji> } : snapshot;
    case 'realm_linkifiers':
      return { ...snapshot, linkifiers: event['realm_linkifiers'] as Linkifier[] };
    default:
      return snapshot;
  }
}

/** Subscribed streams in the order the left column shows them: pinned first, then by name. */
export function sortedSubscriptions(snapshot: Pick<ChatSnapshot, 'subscriptions'>): Subscription[] {
  return [...snapshot.subscriptions.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name));
}

export function isTopicMuted(snapshot: Pick<ChatSnapshot, 'topicPolicies'>, streamId: number, topic: string): boolean {
  return snapshot.topicPolicies.get(topicKey(streamId, topic)) === 1;
}
