/**
 * A client's reducer: applies events, as GET /events returns them (api-notes §d), to a
 * POST /register state (api-notes §e). The state-equivalence test (STYLE.md habit 7) compares
 * the result with a fresh register. Written for the api-notes shapes, not for what the server
 * happens to send.
 */
import { applyCustomProfileFields, applyDrafts, applyProfileFieldValue, applyUserGroup } from './apply-group-events';
import { applyRealmBot, applyRealmUser } from './apply-people-events';
import { applyPresence, applyRealm, applyRealmUserSettingsDefaults, applyUserStatus } from './apply-org-events';

export type State = Record<string, unknown>;
export type Event = Record<string, unknown>;

interface Unread {
  count: number;
  pms: { other_user_id: number; sender_id: number; message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing: boolean;
}

interface MessageDetails {
  type: 'stream' | 'private';
  mentioned?: boolean;
  user_ids?: number[];
  stream_id?: number;
  topic?: string;
}

type Row = Record<string, unknown>;

function list<T = Row>(state: State, key: string): T[] {
  return state[key] as T[];
}

function removeIds(ids: number[], gone: ReadonlySet<number>): number[] {
  return ids.filter((id) => !gone.has(id));
}

/** Drops message IDs from every unread bucket; empty buckets go. */
function dropUnread(unread: Unread, ids: readonly number[]): void {
  const gone = new Set(ids);
  unread.pms = unread.pms.map((p) => ({ ...p, message_ids: removeIds(p.message_ids, gone) })).filter((p) => p.message_ids.length > 0);
  unread.streams = unread.streams
    .map((s) => ({ ...s, unread_message_ids: removeIds(s.unread_message_ids, gone) }))
    .filter((s) => s.unread_message_ids.length > 0);
  unread.huddles = unread.huddles
    .map((h) => ({ ...h, message_ids: removeIds(h.message_ids, gone) }))
    .filter((h) => h.message_ids.length > 0);
  unread.mentions = removeIds(unread.mentions, gone);
  unread.count =
    unread.pms.reduce((n, p) => n + p.message_ids.length, 0) +
    unread.streams.reduce((n, s) => n + s.unread_message_ids.length, 0) +
    unread.huddles.reduce((n, h) => n + h.message_ids.length, 0);
}

/** Adds one unread message to its bucket, keeping IDs ascending. */
function addUnread(unread: Unread, selfId: number, id: number, details: MessageDetails): void {
  const insert = (ids: number[]) => [...ids, id].sort((a, b) => a - b);
  if (details.type === 'stream') {
    const bucket = unread.streams.find((s) => s.stream_id === details.stream_id && s.topic === details.topic);
    if (bucket) bucket.unread_message_ids = insert(bucket.unread_message_ids);
    else unread.streams.push({ stream_id: details.stream_id ?? -1, topic: details.topic ?? '', unread_message_ids: [id] });
  } else {
    const others = details.user_ids ?? [];
    if (others.length <= 1) {
      const other = others[0] ?? selfId;
      const bucket = unread.pms.find((p) => p.other_user_id === other);
      if (bucket) bucket.message_ids = insert(bucket.message_ids);
      else unread.pms.push({ other_user_id: other, sender_id: other, message_ids: [id] });
    } else {
      const key = [...others, selfId].sort((a, b) => a - b).join(',');
      const bucket = unread.huddles.find((h) => h.user_ids_string === key);
      if (bucket) bucket.message_ids = insert(bucket.message_ids);
      else unread.huddles.push({ user_ids_string: key, message_ids: [id] });
    }
  }
  if (details.mentioned) unread.mentions = insert(unread.mentions);
  unread.count += 1;
}

function applyMessage(state: State, selfId: number, event: Event): void {
  const message = event['message'] as Row;
  const flags = event['flags'] as string[];
  const id = message['id'] as number;
  if ('max_message_id' in state) state['max_message_id'] = Math.max(state['max_message_id'] as number, id);
  const isStream = message['type'] === 'stream';
  const others = isStream
    ? []
    : (message['display_recipient'] as { id: number }[])
        .map((r) => r.id)
        .filter((member) => member !== selfId)
        .sort((a, b) => a - b);
  if ('unread_msgs' in state && !flags.includes('read')) {
    const details: MessageDetails = isStream
      ? { type: 'stream', stream_id: message['stream_id'] as number, topic: message['subject'] as string }
      : { type: 'private', user_ids: others };
    if (flags.includes('mentioned') || flags.includes('wildcard_mentioned')) details.mentioned = true;
    addUnread(state['unread_msgs'] as Unread, selfId, id, details);
  }
  if ('starred_messages' in state && flags.includes('starred'))
    state['starred_messages'] = [...list<number>(state, 'starred_messages'), id];
  if ('recent_private_conversations' in state && !isStream) {
    const key = others.join(',');
    const rest = list<{ max_message_id: number; user_ids: number[] }>(state, 'recent_private_conversations').filter(
      (c) => c.user_ids.join(',') !== key,
    );
    state['recent_private_conversations'] = [{ max_message_id: id, user_ids: others }, ...rest];
  }
}

function applyFlags(state: State, selfId: number, event: Event): void {
  const ids = event['messages'] as number[];
  const adding = event['op'] === 'add';
  if (event['flag'] === 'read' && 'unread_msgs' in state) {
    const unread = state['unread_msgs'] as Unread;
    if (adding) {
      // `all`: every unread message was read, whatever the list says.
      if (event['all'] === true) Object.assign(unread, { count: 0, pms: [], streams: [], huddles: [], mentions: [] });
      else dropUnread(unread, ids);
    } else {
      const details = event['message_details'] as Record<string, MessageDetails>;
      for (const id of ids) {
        const detail = details[String(id)];
        if (detail) addUnread(unread, selfId, id, detail);
      }
    }
  }
  if (event['flag'] === 'starred' && 'starred_messages' in state) {
    const starred = list<number>(state, 'starred_messages');
    state['starred_messages'] = adding ? [...starred, ...ids].sort((a, b) => a - b) : starred.filter((id) => !ids.includes(id));
  }
}

function applyDelete(state: State, event: Event): void {
  const ids = (event['message_ids'] as number[] | undefined) ?? [event['message_id'] as number];
  if ('unread_msgs' in state) dropUnread(state['unread_msgs'] as Unread, ids);
  if ('starred_messages' in state) state['starred_messages'] = list<number>(state, 'starred_messages').filter((id) => !ids.includes(id));
}

/** A topic or stream move carries unread IDs along (api-notes §d update_message). */
function applyUpdateMessage(state: State, event: Event): void {
  if (!('unread_msgs' in state)) return;
  const newTopic = event['subject'] as string | undefined;
  const newStream = event['new_stream_id'] as number | undefined;
  if (newTopic === undefined && newStream === undefined) return;
  const unread = state['unread_msgs'] as Unread;
  const moved = new Set(event['message_ids'] as number[]);
  const carried = unread.streams.flatMap((s) => s.unread_message_ids).filter((id) => moved.has(id));
  const mentioned = unread.mentions.filter((id) => moved.has(id));
  dropUnread(unread, carried);
  for (const id of carried) {
    addUnread(unread, 0, id, {
      type: 'stream',
      stream_id: newStream ?? (event['stream_id'] as number),
      topic: newTopic ?? (event['orig_subject'] as string),
      mentioned: mentioned.includes(id),
    });
  }
}

function applySubscription(state: State, selfId: number, event: Event): void {
  const op = event['op'];
  if (op === 'add') {
    const added = event['subscriptions'] as Row[];
    const ids = new Set(added.map((s) => s['stream_id']));
    state['subscriptions'] = [...list(state, 'subscriptions'), ...added];
    state['never_subscribed'] = list(state, 'never_subscribed').filter((s) => !ids.has(s['stream_id']));
    state['unsubscribed'] = list(state, 'unsubscribed').filter((s) => !ids.has(s['stream_id']));
  } else if (op === 'update') {
    // A personal property of one subscription (SPEC POST /users/me/subscriptions/properties).
    const sub = list(state, 'subscriptions').find((s) => s['stream_id'] === event['stream_id']);
    if (sub) sub[event['property'] as string] = event['value'];
  } else if (op === 'remove') {
    // stream-writes: the subscription moves to `unsubscribed`, without the user among its subscribers.
    const ids = new Set((event['subscriptions'] as Row[]).map((s) => s['stream_id']));
    const leaving = list(state, 'subscriptions').filter((s) => ids.has(s['stream_id']));
    state['subscriptions'] = list(state, 'subscriptions').filter((s) => !ids.has(s['stream_id']));
    for (const sub of leaving) {
      if (Array.isArray(sub['subscribers'])) sub['subscribers'] = (sub['subscribers'] as number[]).filter((u) => u !== selfId);
    }
    state['unsubscribed'] = [...list(state, 'unsubscribed'), ...leaving];
  } else if (op === 'peer_add' || op === 'peer_remove') {
    const streamIds = event['stream_ids'] as number[];
    const userIds = event['user_ids'] as number[];
    for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
      for (const sub of list(state, key)) {
        if (!streamIds.includes(sub['stream_id'] as number) || !Array.isArray(sub['subscribers'])) continue;
        const current = sub['subscribers'] as number[];
        sub['subscribers'] =
          op === 'peer_add' ? [...new Set([...current, ...userIds])].sort((a, b) => a - b) : current.filter((u) => !userIds.includes(u));
      }
    }
  }
}

function applyUserTopic(state: State, event: Event): void {
  const same = (row: Row) =>
    row['stream_id'] === event['stream_id'] && String(row['topic_name']).toLowerCase() === String(event['topic_name']).toLowerCase();
  const rest = list(state, 'user_topics').filter((row) => !same(row));
  const { type: _type, id: _id, ...row } = event;
  state['user_topics'] = event['visibility_policy'] === 0 ? rest : [...rest, row];
}

// stream-writes: the lists a stream appears in (api-notes §e POST /register).
const STREAM_LISTS = ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed'];

function applyStreamDelete(state: State, event: Event): void {
  const ids = new Set((event['streams'] as Row[]).map((s) => s['stream_id']));
  for (const key of STREAM_LISTS) if (key in state) state[key] = list(state, key).filter((s) => !ids.has(s['stream_id']));
}

/** A stream's first message sets its `first_message_id`; clients note it from the message event. */
function applyFirstMessage(state: State, event: Event): void {
  const message = event['message'] as Row;
  if (message['type'] !== 'stream') return;
  for (const key of STREAM_LISTS) {
    for (const stream of list(state, key)) {
      if (stream['stream_id'] === message['stream_id'] && stream['first_message_id'] === null) stream['first_message_id'] = message['id'];
    }
  }
}

/** api-notes §d stream update: one property, with its companions. */
function applyStreamUpdate(state: State, event: Event): void {
  const property = event['property'] as string;
  const changes: Row = { [property]: event['value'] };
  if (property === 'description') changes['rendered_description'] = event['rendered_description'];
  if (property === 'invite_only') {
    changes['history_public_to_subscribers'] = event['history_public_to_subscribers'];
    changes['is_web_public'] = event['is_web_public'];
  }
  if (property === 'stream_post_policy') changes['is_announcement_only'] = event['value'] === 2;
  for (const key of STREAM_LISTS) {
    for (const stream of list(state, key)) if (stream['stream_id'] === event['stream_id']) Object.assign(stream, changes);
  }
}

/** Applies `events` in order to a copy of `state`; `selfId` is the registered user. */
export function applyEvents(initial: State, selfId: number, events: readonly Event[]): State {
  const state = structuredClone(initial);
  for (const event of events) {
    switch (event['type']) {
      case 'message':
        applyMessage(state, selfId, event);
        applyFirstMessage(state, event);
        break;
      case 'update_message_flags':
        applyFlags(state, selfId, event);
        break;
      case 'delete_message':
        applyDelete(state, event);
        break;
      case 'update_message':
        applyUpdateMessage(state, event);
        break;
      case 'subscription':
        if ('subscriptions' in state) applySubscription(state, selfId, event);
        break;
      case 'default_streams':
        if ('realm_default_streams' in state) state['realm_default_streams'] = event['default_streams'];
        break;
      case 'default_stream_groups':
        if ('realm_default_stream_groups' in state) state['realm_default_stream_groups'] = event['default_stream_groups'];
        break;
      case 'user_topic':
        if ('user_topics' in state) applyUserTopic(state, event);
        break;
      case 'stream':
        if (event['op'] === 'create' && 'streams' in state) state['streams'] = [...list(state, 'streams'), ...(event['streams'] as Row[])];
        // stream-writes: archive, visibility loss and property updates.
        if (event['op'] === 'delete') applyStreamDelete(state, event);
        if (event['op'] === 'update') applyStreamUpdate(state, event);
        break;
      case 'realm_user':
        applyRealmUser(state, selfId, event);
        // A custom profile field's value.
        applyProfileFieldValue(state, event);
        break;
      // Personal settings, and their legacy twins at top level (api-notes §d).
      case 'user_settings':
        if ('user_settings' in state) (state['user_settings'] as Row)[event['property'] as string] = event['value'];
        break;
      case 'update_display_settings':
        if ((event['setting_name'] as string) in state) state[event['setting_name'] as string] = event['setting'];
        break;
      case 'update_global_notifications':
        if ((event['notification_name'] as string) in state) state[event['notification_name'] as string] = event['setting'];
        break;
      // Bots and muted users.
      case 'realm_bot':
        if ('realm_bots' in state) applyRealmBot(state, event);
        break;
      case 'muted_users':
        if ('muted_users' in state) state['muted_users'] = event['muted_users'];
        break;
      // The whole dict each time (api-notes §d realm_emoji)
      case 'realm_emoji':
        state['realm_emoji'] = event['realm_emoji'];
        break;
      case 'user_group':
        applyUserGroup(state, event);
        break;
      case 'drafts':
        applyDrafts(state, event);
        break;
      case 'realm_playgrounds':
        if ('realm_playgrounds' in state) state['realm_playgrounds'] = event['realm_playgrounds'];
        break;
      case 'custom_profile_fields':
        applyCustomProfileFields(state, event);
        break;
      case 'alert_words':
        state['alert_words'] = event['alert_words'];
        break;
      case 'realm_linkifiers':
        state['realm_linkifiers'] = event['realm_linkifiers'];
        break;
      case 'scheduled_messages':
        applyScheduled(state, event);
        break;
      case 'user_status':
        applyUserStatus(state, event);
        break;
      case 'realm':
        applyRealm(state, event);
        break;
      case 'realm_user_settings_defaults':
        applyRealmUserSettingsDefaults(state, event);
        break;
      case 'presence':
        applyPresence(state, event);
        break;
      default:
        break;
    }
  }
  return state;
}

function applyScheduled(state: State, event: Event): void {
  const current = list(state, 'scheduled_messages');
  const byDue = (a: Row, b: Row) =>
    (a['scheduled_delivery_timestamp'] as number) - (b['scheduled_delivery_timestamp'] as number) ||
    (a['scheduled_message_id'] as number) - (b['scheduled_message_id'] as number);
  if (event['op'] === 'add') state['scheduled_messages'] = [...current, ...(event['scheduled_messages'] as Row[])].sort(byDue);
  if (event['op'] === 'update') {
    const updated = event['scheduled_message'] as Row;
    state['scheduled_messages'] = current
      .map((m) => (m['scheduled_message_id'] === updated['scheduled_message_id'] ? updated : m))
      .sort(byDue);
  }
  if (event['op'] === 'remove')
    state['scheduled_messages'] = current.filter((m) => m['scheduled_message_id'] !== event['scheduled_message_id']);
}
