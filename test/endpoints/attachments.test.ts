import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { postFiles, rawRequest } from '../helpers/files';
import { ApiClient, badRequest } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { RealmFile, sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer, type Credentials, type TestServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

async function upload(server: TestServer, who: Credentials, name: string, text: string): Promise<{ uri: string; pathId: string }> {
  const res = await postFiles(server.baseUrl, '/user_uploads', who, [
    { field: 'file', filename: name, contentType: 'text/plain', data: Buffer.from(text) },
  ]);
  if (res.status !== 200) throw new Error(res.body.toString());
  const uri = String(res.json()['uri']);
  return { uri, pathId: uri.slice('/user_uploads/'.length) };
}

interface Attachment {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

/** Long-polls (no dont_block) until an event of `type` arrives: the time passes on the server's clock. */
async function waitForEvent(
  client: ApiClient,
  queueId: string,
  lastEventId: number,
  matches: (event: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  let last = lastEventId;
  for (;;) {
    const res = await client.get('/events', { queue_id: queueId, last_event_id: last });
    for (const event of res.body['events'] as (Record<string, unknown> & { id: number })[]) {
      last = Math.max(last, event.id);
      if (matches(event)) return event;
    }
  }
}

t.test('attachments and their lifecycle', async (t) => {
  const server = await startServer({ env: { DELETE_TOPIC_TIME_BUDGET_MS: '0' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const asAlice = api.as(alice);

  t.test('DELETE /attachments/{attachment_id} errors', async (t) => {
    t.test('an unknown id is Invalid attachment; one that is not a number is a URL of no route', async (t) => {
      const unknown = await asAlice.call('DELETE', '/attachments/999999');
      t.strictSame([unknown.status, unknown.body], [400, badRequest('Invalid attachment')]);
      const malformed = await asAlice.call('DELETE', '/attachments/abc');
      t.strictSame([malformed.status, malformed.body], [404, { result: 'error', msg: 'Not found', code: 'BAD_REQUEST' }]);
    });
    t.test("someone else's upload is Invalid attachment too", async (t) => {
      await upload(server, bob, 'bobs.txt', 'bob');
      const mine = (await api.as(bob).get('/attachments')).body['attachments'] as Attachment[];
      const res = await asAlice.call('DELETE', `/attachments/${mine[0]?.id}`);
      t.strictSame(res.body, badRequest('Invalid attachment'));
    });
    t.test('without credentials: an error without code', async (t) => {
      const res = await api.as(null).call('DELETE', '/attachments/1');
      t.equal(res.status, 401);
      t.strictSame(res.body, { result: 'error', msg: 'Not logged in: API authentication or user session required' });
    });
  });

  t.test('GET /attachments lists own uploads with the messages that link them', async (t) => {
    const events = await EventReader.register(asAlice, { event_types: ['attachment'] });
    const { uri, pathId } = await upload(server, alice, 'listed.txt', 'twelve bytes');
    const before = await asAlice.get('/attachments');
    t.strictSame(responseViolations('get', '/attachments', before.body), []);
    const listed = (before.body['attachments'] as Attachment[]).find((a) => a.path_id === pathId);
    hasFields(t, listed, { name: 'listed.txt', size: 12, messages: [] });
    t.ok(Math.abs((listed?.create_time ?? 0) - Date.now()) < 60_000, 'create_time in milliseconds');
    t.ok((before.body['upload_space_used'] as number) >= 12);
    const messageId = await sendToStream(asAlice, 'general', 'files', `[listed](${uri})`);
    const after = (await asAlice.get('/attachments')).body['attachments'] as Attachment[];
    const linked = after.find((a) => a.path_id === pathId);
    t.equal(linked?.messages.length, 1);
    t.equal(linked?.messages[0]?.id, messageId);
    t.ok(Math.abs((linked?.messages[0]?.date_sent ?? 0) - Date.now()) < 60_000, 'date_sent in milliseconds');
    const received = await events.nextPayloads();
    t.strictSame(
      received.map((e) => e['op']),
      ['add', 'update'],
    );
    t.strictSame((received[1]?.['attachment'] as Attachment).messages, linked?.messages);
    t.notOk(
      ((await api.as(bob).get('/attachments')).body['attachments'] as Attachment[]).some((a) => a.path_id === pathId),
      'only own uploads',
    );
  });

  t.test('an edit that drops the link unclaims the upload; one that adds it claims it', async (t) => {
    const { uri, pathId } = await upload(server, alice, 'edited.txt', 'edit me');
    const messageId = await sendToStream(asAlice, 'general', 'edits', 'no link yet');
    const events = await EventReader.register(asAlice, { event_types: ['attachment'] });
    await asAlice.call('PATCH', `/messages/${messageId}`, { content: `now [linked](${uri})` });
    const claimed = await events.nextPayloads();
    t.strictSame(
      claimed.map((e) => [e['op'], (e['attachment'] as Attachment).messages.length]),
      [['update', 1]],
    );
    t.equal((await rawRequest(server.baseUrl, uri, { auth: bob })).status, 200, 'readers of the message may fetch it');
    await asAlice.call('PATCH', `/messages/${messageId}`, { content: 'link removed' });
    const dropped = await events.nextPayloads();
    t.strictSame(
      dropped.map((e) => [e['op'], (e['attachment'] as Attachment).messages.length]),
      [['update', 0]],
    );
    const listed = ((await asAlice.get('/attachments')).body['attachments'] as Attachment[]).find((a) => a.path_id === pathId);
    t.strictSame(listed?.messages, []);
  });

  t.test('deleting the last linking message deletes the file; an earlier one only shortens the list', async (t) => {
    const { uri, pathId } = await upload(server, alice, 'twice.txt', 'linked twice');
    const first = await sendToStream(asAlice, 'general', 'twice', `[a](${uri})`);
    const second = await sendToStream(asAlice, 'general', 'twice', `[b](${uri})`);
    const events = await EventReader.register(asAlice, { event_types: ['attachment'] });
    t.strictSame((await api.call('DELETE', `/messages/${first}`)).body, { result: 'success', msg: '' });
    const shortened = await events.nextPayloads();
    t.strictSame(
      shortened.map((e) => e['op']),
      ['update'],
    );
    t.strictSame(
      (shortened[0]?.['attachment'] as Attachment).messages.map((m) => m.id),
      [second],
    );
    t.equal((await rawRequest(server.baseUrl, uri, { auth: bob })).status, 200);
    await api.call('DELETE', `/messages/${second}`);
    const removed = await events.nextPayloads();
    t.equal(removed.length, 1);
    hasFields(t, removed[0], { type: 'attachment', op: 'remove', attachment: { id: (shortened[0]?.['attachment'] as Attachment).id } });
    t.type(removed[0]?.['upload_space_used'], 'number');
    t.equal((await rawRequest(server.baseUrl, uri, { auth: alice })).status, 404, 'gone for the uploader too');
    t.notOk(((await asAlice.get('/attachments')).body['attachments'] as Attachment[]).some((a) => a.path_id === pathId));
  });

  t.test('delete_topic deletes the files only its messages linked', async (t) => {
    const { uri } = await upload(server, alice, 'topic.txt', 'in a topic');
    await sendToStream(asAlice, 'general', 'doomed', `[t](${uri})`);
    const general = await streamIdOf(api, 'general');
    const res = await api.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed' });
    t.equal(res.body['result'], 'success');
    t.equal((await rawRequest(server.baseUrl, uri, { auth: alice })).status, 404);
  });

  t.test('DELETE /attachments/{attachment_id} deletes the file and tells the owner', async (t) => {
    const { uri, pathId } = await upload(server, alice, 'delete-me.txt', 'bye');
    const events = await EventReader.register(asAlice, { event_types: ['attachment'] });
    const id = ((await asAlice.get('/attachments')).body['attachments'] as Attachment[]).find((a) => a.path_id === pathId)?.id;
    const res = await asAlice.call('DELETE', `/attachments/${id}`);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(responseViolations('delete', '/attachments/{attachment_id}', res.body), []);
    const [event] = await events.nextPayloads();
    hasFields(t, event, { type: 'attachment', op: 'remove', attachment: { id } });
    t.equal((await rawRequest(server.baseUrl, uri, { auth: alice })).status, 404);
  });
});

t.test('time-driven lifecycle: unclaimed uploads expire, retention takes files with their messages', async (t) => {
  const server = await startServer({
    env: {
      UNCLAIMED_UPLOAD_EXPIRY_MS: '1500',
      ATTACHMENT_SWEEP_INTERVAL_MS: '50',
      RETENTION_INTERVAL_MS: '50',
      HEARTBEAT_INTERVAL_MS: '2000',
    },
  });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());

  t.test('an upload no message links is deleted after the configured time; a linked one stays', async (t) => {
    const register = await api.post('/register', { event_types: ['attachment'] });
    const queueId = String(register.body['queue_id']);
    const unclaimed = await upload(server, server.owner, 'lonely.txt', 'nobody links me');
    const claimed = await upload(server, server.owner, 'wanted.txt', 'linked');
    await sendToStream(api, 'general', 'keep', `[w](${claimed.uri})`);
    const lonelyId = ((await api.get('/attachments')).body['attachments'] as Attachment[]).find((a) => a.path_id === unclaimed.pathId)?.id;
    const removed = await waitForEvent(
      api,
      queueId,
      Number(register.body['last_event_id']),
      (e) => e['type'] === 'attachment' && e['op'] === 'remove',
    );
    t.strictSame(removed['attachment'], { id: lonelyId });
    const remaining = (await api.get('/attachments')).body['attachments'] as Attachment[];
    t.notOk(
      remaining.some((a) => a.path_id === unclaimed.pathId),
      'the unclaimed upload is gone',
    );
    t.ok(
      remaining.some((a) => a.path_id === claimed.pathId),
      'the linked upload stays',
    );
    t.equal((await rawRequest(server.baseUrl, unclaimed.uri, { auth: server.owner })).status, 404);
    t.equal((await rawRequest(server.baseUrl, claimed.uri, { auth: server.owner })).status, 200);
  });

  t.test('a message deleted by retention takes the file it alone linked', async (t) => {
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'short memory' }], message_retention_days: 1 });
    const { uri } = await upload(server, server.owner, 'retained.txt', 'old news');
    const register = await api.post('/register', { event_types: ['delete_message'] });
    const messageId = await sendToStream(api, 'short memory', 'old', `[r](${uri})`);
    realmFile.backdate(messageId, 2 * 86_400);
    await waitForEvent(
      api,
      String(register.body['queue_id']),
      Number(register.body['last_event_id']),
      (e) => e['type'] === 'delete_message',
    );
    t.equal((await rawRequest(server.baseUrl, uri, { auth: server.owner })).status, 404);
  });
});
