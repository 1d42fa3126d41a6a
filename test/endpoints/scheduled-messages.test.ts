import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

type ScheduledMessage = Record<string, unknown>;

const NOT_FOUND = { result: 'error', msg: 'Scheduled message does not exist', code: 'BAD_REQUEST' };
const IN_THE_PAST = { result: 'error', msg: 'Scheduled delivery time must be in the future.', code: 'BAD_REQUEST' };

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

t.test('scheduled messages', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const ownerId = Number((await api.get('/users/me')).body['user_id']);
  const streamId = async (name: string): Promise<number> => {
    const streams = (await api.get('/streams')).body['streams'] as { name: string; stream_id: number }[];
    return streams.find((s) => s.name === name)?.stream_id as number;
  };
  const general = await streamId('general');
  const later = nowSeconds() + 3600;
  const listOf = async (client: ApiClient): Promise<ScheduledMessage[]> =>
    (await client.get('/scheduled_messages')).body['scheduled_messages'] as ScheduledMessage[];
  const schedule = (client: ApiClient, params: Record<string, string | number | object>) =>
    client.post('/scheduled_messages', {
      type: 'stream',
      to: general,
      topic: 'plans',
      content: 'x',
      scheduled_delivery_timestamp: later,
      ...params,
    });
  const realmDb = (): Database.Database =>
    new Database(path.join(server.dataDir, 'realms', 'default.sqlite3'), { readonly: true, fileMustExist: true });

  t.test('POST errors', async (t) => {
    t.test('an unknown stream ID is STREAM_DOES_NOT_EXIST with the ID', async (t) => {
      const res = await schedule(api, { to: 9999 });
      t.equal(res.status, 400);
      t.strictSame(res.body, {
        result: 'error',
        msg: "Stream with ID '9999' does not exist",
        code: 'STREAM_DOES_NOT_EXIST',
        stream_id: 9999,
      });
    });
    t.test('an invalid user ID is BAD_REQUEST', async (t) => {
      const res = await schedule(api, { type: 'direct', to: [alice.id, 4242] });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Invalid user ID 4242', code: 'BAD_REQUEST' });
    });
    t.test('a delivery time now or in the past is refused', async (t) => {
      const past = await schedule(api, { scheduled_delivery_timestamp: nowSeconds() - 60 });
      t.equal(past.status, 400);
      t.strictSame(past.body, IN_THE_PAST);
      const notInteger = await schedule(api, { scheduled_delivery_timestamp: 'soon' });
      t.strictSame(notInteger.body, {
        result: 'error',
        msg: 'Argument "scheduled_delivery_timestamp" is not valid JSON.',
        code: 'BAD_REQUEST',
      });
    });
    t.test('every required parameter is named when missing', async (t) => {
      for (const name of ['type', 'to', 'content', 'scheduled_delivery_timestamp']) {
        const params: Record<string, string | number> = {
          type: 'stream',
          to: general,
          topic: 'plans',
          content: 'x',
          scheduled_delivery_timestamp: later,
        };
        delete params[name];
        const res = await api.post('/scheduled_messages', params);
        t.equal(res.status, 400, name);
        t.strictSame(res.body, { result: 'error', msg: `Missing '${name}' argument`, code: 'REQUEST_VARIABLE_MISSING', var_name: name });
      }
    });
    t.test('an unknown type and a `to` that is not JSON are refused', async (t) => {
      const type = await schedule(api, { type: 'broadcast' });
      t.strictSame(type.body, { result: 'error', msg: 'Invalid type', code: 'REQUEST_VARIABLE_INVALID', var_name: 'type' });
      const to = await schedule(api, { to: 'general' });
      t.strictSame(to.body, { result: 'error', msg: 'Argument "to" is not valid JSON.', code: 'BAD_REQUEST' });
    });
    t.test('odd `to` values get the send errors, never a 500', async (t) => {
      const noStream = await schedule(api, { to: [] });
      t.strictSame(noStream.body, { result: 'error', msg: 'Missing stream', code: 'BAD_REQUEST' });
      const twoStreams = await schedule(api, { to: [general, general + 1] });
      t.strictSame(twoStreams.body, { result: 'error', msg: 'Cannot send to multiple streams', code: 'BAD_REQUEST' });
      const nobody = await schedule(api, { type: 'direct', to: [] });
      t.strictSame(nobody.body, { result: 'error', msg: 'Message must have recipients', code: 'BAD_REQUEST' });
      const names = await schedule(api, { type: 'direct', to: ['alice@example.com'] });
      t.strictSame(names.body, { result: 'error', msg: 'to is not valid', code: 'REQUEST_VARIABLE_INVALID', var_name: 'to' });
      const badPath = await api.call('DELETE', '/scheduled_messages/abc');
      t.strictSame(
        { status: badPath.status, body: badPath.body },
        { status: 404, body: { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' } },
      );
    });
    t.test('a stream message needs a topic; content must not be empty', async (t) => {
      const noTopic = await api.post('/scheduled_messages', {
        type: 'stream',
        to: general,
        content: 'x',
        scheduled_delivery_timestamp: later,
      });
      t.strictSame(noTopic.body, { result: 'error', msg: 'Missing topic', code: 'BAD_REQUEST' });
      const empty = await schedule(api, { content: '  ' });
      t.strictSame(empty.body, { result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
    });
    t.test('the permission checks of sending now apply', async (t) => {
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'secret-plans' }], invite_only: true });
      const res = await schedule(api.as(alice), { to: await streamId('secret-plans') });
      t.strictSame(res.body, { result: 'error', msg: "Not authorized to send to stream 'secret-plans'", code: 'BAD_REQUEST' });
      t.strictSame(await listOf(api.as(alice)), [], 'nothing was stored');
    });
  });

  t.test('a stream message is scheduled and listed with every field', async (t) => {
    const res = await schedule(api, { content: 'hello **world**', topic: 'plans', scheduled_delivery_timestamp: later });
    t.equal(res.status, 200);
    const id = res.body['scheduled_message_id'];
    t.type(id, 'number');
    t.strictSame(await listOf(api), [
      {
        scheduled_message_id: id,
        type: 'stream',
        to: general,
        topic: 'plans',
        content: 'hello **world**',
        rendered_content: '<p>hello <strong>world</strong></p>',
        scheduled_delivery_timestamp: later,
        failed: false,
      },
    ]);
    t.strictSame(await listOf(api.as(bob)), [], "another user does not see the owner's");
    await api.call('DELETE', `/scheduled_messages/${String(id)}`);
  });

  t.test('a direct message lists `to` as the other members, sorted, with no topic; `private` is accepted', async (t) => {
    const res = await schedule(api, { type: 'private', to: [bob.id, alice.id, ownerId], content: 'to you both', topic: 'ignored' });
    t.equal(res.status, 200);
    const id = res.body['scheduled_message_id'];
    t.strictSame(await listOf(api), [
      {
        scheduled_message_id: id,
        type: 'private',
        to: [alice.id, bob.id],
        content: 'to you both',
        rendered_content: '<p>to you both</p>',
        scheduled_delivery_timestamp: later,
        failed: false,
      },
    ]);
    await api.call('DELETE', `/scheduled_messages/${String(id)}`);
  });

  t.test('GET lists by delivery time, ascending', async (t) => {
    const ids: unknown[] = [];
    for (const offset of [300, 100, 200])
      ids.push(
        (await schedule(api, { content: `at ${offset}`, scheduled_delivery_timestamp: later + offset })).body['scheduled_message_id'],
      );
    const listed = await listOf(api);
    t.strictSame(
      listed.map((m) => m['content']),
      ['at 100', 'at 200', 'at 300'],
    );
    for (const id of ids) await api.call('DELETE', `/scheduled_messages/${String(id)}`);
  });

  t.test('PATCH', async (t) => {
    const created = await schedule(api, { content: 'draft', topic: 'plans' });
    const id = String(created.body['scheduled_message_id']);
    const patch = (params: Record<string, string | number | object>, client = api) =>
      client.call('PATCH', `/scheduled_messages/${id}`, params);
    const current = async (): Promise<ScheduledMessage> =>
      (await listOf(api)).find((m) => String(m['scheduled_message_id']) === id) as ScheduledMessage;

    t.test('errors', async (t) => {
      t.test('nothing to change', async (t) => {
        const res = await patch({});
        t.equal(res.status, 400);
        t.strictSame(res.body, { result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });
      });
      t.test('a new type needs `to`, and a stream type a topic', async (t) => {
        const noTo = await patch({ type: 'direct' });
        t.strictSame(noTo.body, {
          result: 'error',
          msg: 'Recipient required when updating type of scheduled message.',
          code: 'BAD_REQUEST',
        });
        const noTopic = await patch({ type: 'stream', to: general });
        t.strictSame(noTopic.body, {
          result: 'error',
          msg: 'Topic required when updating scheduled message type to stream.',
          code: 'BAD_REQUEST',
        });
      });
      t.test('a time in the past is refused', async (t) => {
        const res = await patch({ scheduled_delivery_timestamp: nowSeconds() - 1 });
        t.strictSame(res.body, IN_THE_PAST);
      });
      t.test("an unknown ID, or another user's, is a 404", async (t) => {
        const unknown = await api.call('PATCH', '/scheduled_messages/99999', { content: 'x' });
        t.equal(unknown.status, 404);
        t.strictSame(unknown.body, NOT_FOUND);
        const foreign = await patch({ content: 'mine now' }, api.as(alice));
        t.equal(foreign.status, 404);
        t.strictSame(foreign.body, NOT_FOUND);
      });
      t.test('an unknown stream or user is refused as at creation', async (t) => {
        const stream = await patch({ to: 9999 });
        t.strictSame(stream.body, {
          result: 'error',
          msg: "Stream with ID '9999' does not exist",
          code: 'STREAM_DOES_NOT_EXIST',
          stream_id: 9999,
        });
        const user = await patch({ type: 'direct', to: [4242] });
        t.strictSame(user.body, { result: 'error', msg: 'Invalid user ID 4242', code: 'BAD_REQUEST' });
        t.equal((await current())['content'], 'draft', 'nothing changed');
      });
    });

    t.test('content is replaced and rendered again', async (t) => {
      const res = await patch({ content: 'final *words*' });
      t.strictSame(res.body, { result: 'success', msg: '' });
      const now = await current();
      t.equal(now['content'], 'final *words*');
      t.equal(now['rendered_content'], '<p>final <em>words</em></p>');
    });
    t.test('the topic is replaced', async (t) => {
      await patch({ topic: 'new plans' });
      t.equal((await current())['topic'], 'new plans');
    });
    t.test('the delivery time is replaced', async (t) => {
      await patch({ scheduled_delivery_timestamp: later + 60 });
      t.equal((await current())['scheduled_delivery_timestamp'], later + 60);
    });
    t.test('`to` alone moves it to another stream, keeping the topic', async (t) => {
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'elsewhere' }] });
      const elsewhere = await streamId('elsewhere');
      await patch({ to: elsewhere });
      const now = await current();
      t.equal(now['to'], elsewhere);
      t.equal(now['topic'], 'new plans');
    });
    t.test('the type changes to direct with `to`, and back to stream with `to` and a topic', async (t) => {
      await patch({ type: 'direct', to: [bob.id] });
      const direct = await current();
      t.equal(direct['type'], 'private');
      t.strictSame(direct['to'], [bob.id]);
      t.notOk('topic' in direct);
      await patch({ type: 'stream', to: general, topic: 'back again' });
      const stream = await current();
      t.strictSame([stream['type'], stream['to'], stream['topic'], stream['content']], ['stream', general, 'back again', 'final *words*']);
    });
  });

  t.test('DELETE', async (t) => {
    const created = await schedule(api, { content: 'never mind' });
    const id = String(created.body['scheduled_message_id']);
    t.test("another user's is a 404 and stays", async (t) => {
      const res = await api.as(alice).call('DELETE', `/scheduled_messages/${id}`);
      t.equal(res.status, 404);
      t.strictSame(res.body, NOT_FOUND);
      t.ok((await listOf(api)).some((m) => String(m['scheduled_message_id']) === id));
    });
    t.test('the sender cancels it; a second DELETE is a 404', async (t) => {
      const res = await api.call('DELETE', `/scheduled_messages/${id}`);
      t.equal(res.status, 200);
      t.strictSame(res.body, { result: 'success', msg: '' });
      t.notOk((await listOf(api)).some((m) => String(m['scheduled_message_id']) === id));
      const again = await api.call('DELETE', `/scheduled_messages/${id}`);
      t.equal(again.status, 404);
      t.strictSame(again.body, NOT_FOUND);
    });
  });

  t.test('delivery', async (t) => {
    for (const m of await listOf(api)) await api.call('DELETE', `/scheduled_messages/${String(m['scheduled_message_id'])}`);
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'doomed' }] });
    const doomed = await streamId('doomed');
    const before = Number((await api.post('/messages', { type: 'stream', to: 'general', topic: 'x', content: 'before' })).body['id']);
    const due = nowSeconds() + 2;
    const streamSched = Number(
      (await schedule(api, { content: 'on time, **stream**', topic: 'deliveries', scheduled_delivery_timestamp: due })).body[
        'scheduled_message_id'
      ],
    );
    const directSched = Number(
      (await schedule(api, { type: 'direct', to: [alice.id], content: 'on time, direct', scheduled_delivery_timestamp: due })).body[
        'scheduled_message_id'
      ],
    );
    const doomedSched = Number(
      (await schedule(api, { to: doomed, content: 'into the void', scheduled_delivery_timestamp: due })).body['scheduled_message_id'],
    );
    // Archived before delivery: sending there is no longer allowed.
    t.equal((await api.call('DELETE', `/streams/${doomed}`)).status, 200);

    // Wait for the event (the list changing), not for a duration; bounded.
    const deadline = Date.now() + 20_000;
    let listed = await listOf(api);
    while (listed.some((m) => m['failed'] === false) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed = await listOf(api);
    }

    t.test('a refused delivery stays listed with failed: true', async (t) => {
      t.strictSame(
        listed.map((m) => [m['scheduled_message_id'], m['failed']]),
        [[doomedSched, true]],
      );
    });
    const deliveredIds = (() => {
      const db = realmDb();
      try {
        const row = (id: number) =>
          db.prepare('SELECT delivered_message_id AS id FROM scheduled_messages WHERE id = ?').get(id) as { id: number };
        return { stream: row(streamSched).id, direct: row(directSched).id };
      } finally {
        db.close();
      }
    })();

    t.test('a stream message goes out as a normal message with a new ID', async (t) => {
      t.ok(deliveredIds.stream > before, 'a new message ID');
      const message = await fetchMessage(api, deliveredIds.stream, false);
      t.strictSame(
        [message['content'], message['sender_id'], message['subject'], message['stream_id'], message['type']],
        ['on time, **stream**', ownerId, 'deliveries', general, 'stream'],
      );
      t.ok(Number(message['timestamp']) >= due, 'sent at or after its time');
      const rendered = await fetchMessage(api.as(alice), deliveredIds.stream);
      t.equal(rendered['content'], '<p>on time, <strong>stream</strong></p>', 'subscribers received it');
    });
    t.test('a direct message reaches its recipient', async (t) => {
      const message = await fetchMessage(api.as(alice), deliveredIds.direct, false);
      t.strictSame([message['content'], message['sender_id'], message['type']], ['on time, direct', ownerId, 'private']);
      t.ok(deliveredIds.direct > before);
    });
    t.test('a delivered message can no longer be edited or deleted', async (t) => {
      const edit = await api.call('PATCH', `/scheduled_messages/${String(streamSched)}`, { content: 'too late' });
      t.equal(edit.status, 404);
      t.strictSame(edit.body, NOT_FOUND);
    });
    t.test('a failed message needs a new time to be edited', async (t) => {
      const res = await api.call('PATCH', `/scheduled_messages/${String(doomedSched)}`, { content: 'retry' });
      t.strictSame(res.body, IN_THE_PAST);
      const moved = await api.call('PATCH', `/scheduled_messages/${String(doomedSched)}`, {
        to: general,
        scheduled_delivery_timestamp: nowSeconds() + 3600,
      });
      t.equal(moved.status, 200);
      const now = (await listOf(api)).find((m) => m['scheduled_message_id'] === doomedSched);
      t.strictSame([now?.['failed'], now?.['to']], [false, general]);
    });
  });
});
