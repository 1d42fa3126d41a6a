import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { eventField } from '../helpers/unit-realm';
import pino from 'pino';
import { doDeleteMessage } from '../../workers/actions/message-delete';
import { doUpdateMessage, type UpdateMessageRequest } from '../../workers/actions/message-edit';
import { doSendMessage } from '../../workers/actions/messages';
import { doSubscribe } from '../../workers/actions/subscriptions';
import { doCreateUser } from '../../workers/actions/users';
import { createRealm } from '../../workers/db/create-realm';
import type { QueuedEvent } from '../../workers/events/outbox';
import { streamByName } from '../../workers/queries/streams';
import { userById, type UserRow } from '../../workers/queries/users';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';
import { hasFields } from '../helpers/exact';

// api-notes §d: the payloads of update_message and delete_message, and who they are queued to.
t.test('edit, move and delete queue their events to the right users', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  t.teardown(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const created = await createRealm(dataDir, { subdomain: 'events', name: 'events', ownerEmail: 'o@events.test', ownerName: 'Owner' });
  const realm = new Realm('events', created.file, {
    externalHost: 'localhost',
    isDefault: false,
    log: pino({ level: 'silent' }),
    renderer: new Renderer(0),
  });
  t.teardown(() => realm.close());
  const owner = userById(realm, created.ownerId) as UserRow;
  const aliceId = await doCreateUser(realm, owner, { email: 'alice@events.test', password: 'secret-1', fullName: 'Alice' });
  const bobId = await doCreateUser(realm, owner, { email: 'bob@events.test', password: 'secret-2', fullName: 'Bob' });
  await doSubscribe(realm, owner, {
    subscriptions: [{ name: 'vault' }],
    principals: undefined,
    authorizationErrorsFatal: true,
    announce: false,
    settings: {
      inviteOnly: true,
      isWebPublic: false,
      historyPublicToSubscribers: undefined,
      streamPostPolicy: 1,
      messageRetentionDays: undefined,
      canRemoveSubscribersGroupId: undefined,
    },
  });
  const general = streamByName(realm, 'general')?.id as number;
  const vault = streamByName(realm, 'vault')?.id as number;
  const id = await doSendMessage(realm, owner, {
    target: { kind: 'stream', to: ['general'], topic: 'plans' },
    content: 'draft',
    client: 'test',
    queueId: undefined,
    localId: undefined,
  });

  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));
  const edit = (change: Partial<UpdateMessageRequest>) =>
    doUpdateMessage(realm, owner, {
      messageId: id,
      topic: undefined,
      streamId: undefined,
      content: undefined,
      propagateMode: 'change_one',
      notifyOldThread: false,
      notifyNewThread: false,
      ...change,
    });

  t.test('a content edit goes to everyone who has the message, with both versions', async (t) => {
    delivered.length = 0;
    await edit({ content: 'final' });
    t.equal(delivered.length, 1);
    const [queued] = delivered;
    t.strictSame(
      [...(queued?.userIds ?? [])].sort((a, b) => a - b),
      [owner.id, aliceId, bobId],
    );
    hasFields(t, queued?.event, {
      type: 'update_message',
      user_id: owner.id,
      edit_timestamp: Number,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      stream_id: general,
      stream_name: 'general',
      orig_content: 'draft',
      orig_rendered_content: '<p>draft</p>',
      content: 'final',
      rendered_content: '<p>final</p>',
      is_me_message: false,
      prev_rendered_content_version: 1,
    });
    t.strictSame(
      eventField(queued, 'flags_by_user'),
      { [owner.id]: [], [aliceId]: [], [bobId]: [] },
      'sent through the API: unread for all',
    );
    t.notOk('propagate_mode' in (queued?.event ?? {}), 'no propagate_mode without a move');
  });

  t.test('a move into a private stream tells those losing access that the message is gone', async (t) => {
    delivered.length = 0;
    await edit({ streamId: vault, topic: 'secret plans' });
    const deletion = delivered.find((q) => q.event.type === 'delete_message');
    const update = delivered.find((q) => q.event.type === 'update_message');
    t.strictSame(
      [...(deletion?.userIds ?? [])].sort((a, b) => a - b),
      [aliceId, bobId],
    );
    t.strictSame(deletion?.event, {
      type: 'delete_message',
      message_type: 'stream',
      message_ids: [id],
      stream_id: general,
      topic: 'plans',
    });
    t.strictSame(update?.userIds, [owner.id]);
    hasFields(t, update?.event, {
      type: 'update_message',
      message_ids: [id],
      stream_id: general,
      new_stream_id: vault,
      orig_subject: 'plans',
      subject: 'secret plans',
      topic_links: [],
      propagate_mode: 'change_one',
    });
  });

  t.test('a deletion goes to the stream subscribers in the bulk form', async (t) => {
    delivered.length = 0;
    await doDeleteMessage(realm, owner, id);
    t.strictSame(delivered, [
      {
        event: { type: 'delete_message', message_ids: [id], message_type: 'stream', stream_id: vault, topic: 'secret plans' },
        userIds: [owner.id],
      },
    ]);
  });
});
