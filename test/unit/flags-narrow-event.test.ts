import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import t from 'tap';
import { doUpdateFlagsForNarrow } from '../../workers/actions/flags-narrow';
import { doSendMessage } from '../../workers/actions/messages';
import { doCreateUser } from '../../workers/actions/users';
import { createRealm } from '../../workers/db/create-realm';
import type { QueuedEvent } from '../../workers/events/outbox';
import { parseNarrow } from '../../workers/lib/narrow';
import { resolveNarrow } from '../../workers/queries/narrow-resolve';
import { userById, type UserRow } from '../../workers/queries/users';
import { Realm } from '../../workers/realm';
import { Renderer } from '../../workers/render/pool';

// api-notes §d update_message_flags: the payload, and that it goes to the acting user only.
t.test('flags on a narrow queue one update_message_flags event for the acting user', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-unit-'));
  const created = await createRealm(dataDir, { subdomain: 'flags', name: 'flags', ownerEmail: 'o@flags.test', ownerName: 'O' });
  const realm = new Realm('flags', created.file, {
    externalHost: 'localhost',
    isDefault: false,
    log: pino({ level: 'silent' }),
    renderer: new Renderer(0),
  });
  t.teardown(() => realm.close());
  const owner = userById(realm, created.ownerId) as UserRow;
  const otherId = await doCreateUser(realm, owner, { email: 'b@flags.test', password: 'secret-pw', fullName: 'B' });
  const other = userById(realm, otherId) as UserRow;
  const request = (content: string, target: Parameters<typeof doSendMessage>[2]['target']) =>
    doSendMessage(realm, owner, { target, content, client: 'test', queueId: undefined, localId: undefined });
  const streamMessage = await request('in general', { kind: 'stream', to: ['general'], topic: 'here' });
  const direct = await request('hello @**B**', { kind: 'direct', to: [otherId] });

  const delivered: QueuedEvent[] = [];
  realm.events.subscribe((events) => delivered.push(...events));
  const everything = resolveNarrow(realm, other, parseNarrow([]));
  const range = { anchor: 'oldest' as const, numBefore: 0, numAfter: 10, includeAnchor: true };

  await doUpdateFlagsForNarrow(realm, other, everything, { op: 'add', flag: 'read' }, range);
  t.strictSame(delivered, [
    {
      event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [streamMessage, direct], all: false },
      userIds: [otherId],
    },
  ]);

  delivered.length = 0;
  await doUpdateFlagsForNarrow(realm, other, everything, { op: 'remove', flag: 'read' }, range);
  t.strictSame(delivered, [
    {
      event: {
        type: 'update_message_flags',
        op: 'remove',
        operation: 'remove',
        flag: 'read',
        messages: [streamMessage, direct],
        all: false,
        message_details: {
          [streamMessage]: { type: 'stream', stream_id: 1, topic: 'here', unmuted_stream_msg: true },
          // every other participant, even in a one-to-one conversation (openapi message_details.user_ids)
          [direct]: { type: 'private', user_ids: [owner.id], mentioned: true },
        },
      },
      userIds: [otherId],
    },
  ]);

  delivered.length = 0;
  await doUpdateFlagsForNarrow(realm, other, everything, { op: 'remove', flag: 'read' }, range);
  t.strictSame(delivered, [], 'nothing changed: no event');
});
