import path from 'node:path';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { startServer } from '../helpers/server';

// The parts of the official JavaScript client that call endpoints the public API has since
// removed or replaced; the client still offers them, so they must work.
type Body = Record<string, unknown>;
interface JsClient {
  filters: { retrieve(params?: Record<string, unknown>): Promise<Body> };
  users: { me: { pointer: { retrieve(params?: Record<string, unknown>): Promise<Body>; update(id: number): Promise<Body> } } };
}
type JsConfig = { zuliprc: string } | { username: string; apiKey: string; realm: string };
const zulipInit = require('zulip-js') as (config: JsConfig) => Promise<JsClient>;

t.test('zulip-js filters.retrieve lists the linkifiers in the old [pattern, url, id] form', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const simple = await owner.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' });
  t.equal(simple.status, 200, simple.text);
  const reserved = await owner.post('/realm/filters', { pattern: 'doc-(?P<path>[a-z/]+)', url_template: 'https://docs.example/{+path}' });
  t.equal(reserved.status, 200, reserved.text);

  const js = await zulipInit({ zuliprc: path.join(server.dataDir, 'owner.ini') });
  const listed = await js.filters.retrieve();
  t.strictSame(listed, {
    result: 'success',
    msg: '',
    filters: [
      ['#(?P<id>[0-9]+)', 'https://tracker.example/%(id)s', simple.body['id']],
      // Only the plain {name} expansion has an old form; the others stay as they are.
      ['doc-(?P<path>[a-z/]+)', 'https://docs.example/{+path}', reserved.body['id']],
    ],
  });
});

t.test('zulip-js users.me.pointer moves forward to received messages only, with a pointer event', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const bob = await createMember(owner, 'Bob');
  const carol = await createMember(owner, 'Carol');
  const toBob = await owner.post('/messages', { type: 'direct', to: JSON.stringify([bob.id]), content: 'one' });
  const second = await owner.post('/messages', { type: 'direct', to: JSON.stringify([bob.id]), content: 'two' });
  const notBobs = await owner.post('/messages', { type: 'direct', to: JSON.stringify([carol.id]), content: 'not for Bob' });
  const [firstId, secondId, otherId] = [toBob, second, notBobs].map((r) => Number(r.body['id']));

  const js = await zulipInit({ username: bob.email, apiKey: bob.key, realm: server.baseUrl });
  const bobApi = new ApiClient(server.baseUrl, bob);
  const reader = await EventReader.register(bobApi, { event_types: ['pointer'] });

  t.strictSame(await js.users.me.pointer.retrieve(), { result: 'success', msg: '', pointer: -1 }, 'no pointer before the first move');
  t.strictSame(await js.users.me.pointer.update(otherId as number), { result: 'error', msg: 'Invalid message ID', code: 'BAD_REQUEST' });
  t.strictSame(await js.users.me.pointer.update(secondId as number), { result: 'success', msg: '' });
  t.strictSame(await js.users.me.pointer.retrieve(), { result: 'success', msg: '', pointer: secondId });
  // Backwards is accepted and changes nothing, as the endpoint behaved.
  t.strictSame(await js.users.me.pointer.update(firstId as number), { result: 'success', msg: '' });
  t.strictSame(await js.users.me.pointer.retrieve(), { result: 'success', msg: '', pointer: secondId });

  const events = await reader.next();
  t.strictSame(
    events.map((e) => ({ type: e['type'], pointer: e['pointer'] })),
    [{ type: 'pointer', pointer: secondId }],
    'one event, for the move that happened',
  );
});
