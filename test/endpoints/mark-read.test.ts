import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

const BAD = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const MISSING = (name: string) => ({
  result: 'error',
  msg: `Missing '${name}' argument`,
  code: 'REQUEST_VARIABLE_MISSING',
  var_name: name,
});

t.test('mark as read', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  const send = async (params: Record<string, string | number | object>) => Number((await api.post('/messages', params)).body['id']);
  const flagsOf = async (client: ApiClient, id: number) => (await fetchMessage(client, id))['flags'];
  const streamId = async (name: string) => {
    const streams = (await api.get('/streams')).body['streams'] as { name: string; stream_id: number }[];
    return streams.find((s) => s.name === name)?.stream_id ?? -1;
  };

  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'reading' }], principals: [1, alice.id, bob.id] });
  await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true });
  const reading = await streamId('reading');
  const hidden = await streamId('hidden');

  t.test('errors', async (t) => {
    t.test('an unknown stream ID is Invalid stream ID', async (t) => {
      const stream = await api.as(alice).post('/mark_stream_as_read', { stream_id: 99999 });
      t.equal(stream.status, 400);
      t.strictSame(stream.body, BAD('Invalid stream ID'));
      const topic = await api.as(alice).post('/mark_topic_as_read', { stream_id: 99999, topic_name: 'x' });
      t.equal(topic.status, 400);
      t.strictSame(topic.body, BAD('Invalid stream ID'));
    });
    t.test('a private stream the user is not subscribed to is Invalid stream ID', async (t) => {
      const res = await api.as(alice).post('/mark_stream_as_read', { stream_id: hidden });
      t.strictSame(res.body, BAD('Invalid stream ID'));
    });
    t.test('a topic without messages for the user is No such topic', async (t) => {
      const res = await api.as(alice).post('/mark_topic_as_read', { stream_id: reading, topic_name: 'nothing here' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD("No such topic 'nothing here'"));
    });
    t.test('stream_id and topic_name are required', async (t) => {
      const noStream = await api.as(alice).post('/mark_stream_as_read', {});
      t.strictSame(noStream.body, MISSING('stream_id'));
      const noTopic = await api.as(alice).post('/mark_topic_as_read', { stream_id: reading });
      t.strictSame(noTopic.body, MISSING('topic_name'));
    });
  });

  t.test('mark_topic_as_read marks only that topic, matching its name without case', async (t) => {
    const lunch = await send({ type: 'stream', to: 'reading', topic: 'Lunch', content: 'pizza?' });
    const other = await send({ type: 'stream', to: 'reading', topic: 'work', content: 'deploy' });
    t.strictSame(await flagsOf(api.as(alice), lunch), []);
    const res = await api.as(alice).post('/mark_topic_as_read', { stream_id: reading, topic_name: 'lunch' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await flagsOf(api.as(alice), lunch), ['read']);
    t.strictSame(await flagsOf(api.as(alice), other), []);
    t.strictSame(await flagsOf(api.as(bob), lunch), [], "other users' flags are untouched");
  });

  t.test('mark_stream_as_read marks every message of that stream only', async (t) => {
    const inStream = await send({ type: 'stream', to: 'reading', topic: 'work', content: 'more' });
    const elsewhere = await send({ type: 'direct', to: [alice.id], content: 'dm' });
    const res = await api.as(alice).post('/mark_stream_as_read', { stream_id: reading });
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await flagsOf(api.as(alice), inStream), ['read']);
    t.strictSame(await flagsOf(api.as(alice), elsewhere), []);
  });

  t.test('mark_all_as_read marks every message of the user, keeping other flags', async (t) => {
    const stream = await send({ type: 'stream', to: 'reading', topic: 'all', content: 'stream' });
    const direct = await send({ type: 'direct', to: [bob.id], content: '@**Bob 2** hi' });
    await api.as(bob).post('/messages/flags', { messages: [stream], op: 'add', flag: 'starred' });
    const res = await api.as(bob).post('/mark_all_as_read');
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await flagsOf(api.as(bob), stream), ['read', 'starred']);
    t.strictSame(await flagsOf(api.as(bob), direct), ['read', 'mentioned']);
    t.strictSame(await flagsOf(api, direct), [], "the sender's unread API message is untouched");
    const again = await api.as(bob).post('/mark_all_as_read');
    t.strictSame(again.body, { result: 'success', msg: '' }, 'nothing left to mark is still a success');
  });
});
