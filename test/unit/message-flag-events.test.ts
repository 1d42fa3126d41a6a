import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { eventField } from '../helpers/unit-realm';
import pino from 'pino';
import { doUpdateMessageFlags } from '../../workers/actions/flags';
import { doMarkAllAsRead, doMarkStreamAsRead } from '../../workers/actions/mark-read';
import { doSendMessage } from '../../workers/actions/messages';
import { doAddReaction, doRemoveReaction } from '../../workers/actions/reactions';
import { createRealm } from '../../workers/db/create-realm';
import type { QueuedEvent } from '../../workers/events/outbox';
import { userById, type UserRow } from '../../workers/queries/users';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';
import { hasFields } from '../helpers/exact';

// Events have no queue yet: these check what the actions publish, and to whom (api-notes §d).
t.test('reaction and flag events', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  const created = await createRealm(dataDir, { subdomain: 'events', name: 'events', ownerEmail: 'o@events.test', ownerName: 'Owner' });
  const realm = new Realm('events', created.file, {
    externalHost: 'localhost',
    isDefault: false,
    log: pino({ level: 'silent' }),
    renderer: new Renderer(0),
  });
  t.teardown(() => realm.close());
  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));
  const take = () => delivered.splice(0, delivered.length);
  const readAdded = (messages: number[], all: boolean) => ({
    type: 'update_message_flags',
    op: 'add',
    operation: 'add',
    flag: 'read',
    messages,
    all,
  });

  const owner = userById(realm, 1) as UserRow;
  const addUser = (email: string, name: string): UserRow => {
    const id = Number(
      realm.db
        .prepare(`INSERT INTO users (email, delivery_email, full_name, api_key, role, date_joined) VALUES (?, ?, ?, ?, 400, 0)`)
        .run(email, email, name, `key-${email}`).lastInsertRowid,
    );
    return userById(realm, id) as UserRow;
  };
  const member = addUser('m@events.test', 'Member');
  const lurker = addUser('l@events.test', 'Lurker');
  const general = realm.db.prepare("SELECT id FROM streams WHERE name = 'general'").get() as { id: number };
  const send = (sender: UserRow, to: (number | string)[], kind: 'stream' | 'direct') =>
    doSendMessage(realm, sender, {
      target: kind === 'stream' ? { kind, to, topic: 'events' } : { kind, to },
      content: 'hello',
      client: 'API',
      queueId: undefined,
      localId: undefined,
    });
  const streamMessage = await send(owner, ['general'], 'stream');
  // The lurker subscribes after the stream message: no row for it, but access to its history.
  realm.db.prepare("INSERT INTO subscriptions (user_id, stream_id, color) VALUES (?, ?, '#c2c2c2')").run(lurker.id, general.id);
  const directMessage = await send(owner, [member.id], 'direct');
  take();

  t.test('a reaction event carries the legacy user object and goes to rows plus subscribers with history', async (t) => {
    await doAddReaction(realm, member, streamMessage, 'octopus', { emojiName: 'octopus', emojiCode: undefined, reactionType: undefined });
    const [added] = take();
    t.strictSame(added?.event, {
      type: 'reaction',
      op: 'add',
      message_id: streamMessage,
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
      user_id: member.id,
      user: { user_id: member.id, email: member.email, full_name: 'Member' },
    });
    t.strictSame(
      [...(added?.userIds ?? [])].sort((a, b) => a - b),
      [owner.id, member.id, lurker.id],
    );
    await doRemoveReaction(realm, member, streamMessage, { emojiName: 'octopus', emojiCode: undefined, reactionType: undefined });
    const [removed] = take();
    hasFields(t, removed?.event, { type: 'reaction', op: 'remove', emoji_code: '1f419', user_id: member.id });
  });

  t.test('a reaction on a direct message goes to its participants only', async (t) => {
    await doAddReaction(realm, owner, directMessage, '+1', { emojiName: '+1', emojiCode: undefined, reactionType: undefined });
    const [added] = take();
    t.strictSame(
      [...(added?.userIds ?? [])].sort((a, b) => a - b),
      [owner.id, member.id],
    );
  });

  t.test('update_message_flags lists only the messages that changed, to the acting user; no change, no event', async (t) => {
    await doUpdateMessageFlags(realm, member, 'add', 'read', [directMessage, directMessage]);
    await doUpdateMessageFlags(realm, member, 'add', 'read', [directMessage]);
    const events = take();
    t.strictSame(events, [{ event: readAdded([directMessage], false), userIds: [member.id] }]);
  });

  t.test('marking unread carries message_details for direct and stream messages', async (t) => {
    await doUpdateMessageFlags(realm, member, 'remove', 'read', [directMessage]);
    const [direct] = take();
    await doUpdateMessageFlags(realm, owner, 'add', 'read', [streamMessage]);
    take();
    await doUpdateMessageFlags(realm, owner, 'remove', 'read', [streamMessage]);
    const [stream] = take();
    t.strictSame(eventField(direct, 'message_details'), { [String(directMessage)]: { type: 'private', user_ids: [owner.id] } });
    t.strictSame(eventField(stream, 'message_details'), {
      [String(streamMessage)]: { type: 'stream', stream_id: general.id, topic: 'events', unmuted_stream_msg: true },
    });
  });

  t.test('mark_all_as_read sends all with an empty list; mark_stream_as_read lists the IDs', async (t) => {
    await doMarkStreamAsRead(realm, owner, general.id);
    await doMarkAllAsRead(realm, member);
    t.strictSame(take(), [
      { event: readAdded([streamMessage], false), userIds: [owner.id] },
      { event: readAdded([], true), userIds: [member.id] },
    ]);
  });
});
