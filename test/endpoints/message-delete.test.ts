import t from 'tap';
import { ApiClient, badRequest } from '../helpers/http';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { RealmFile, sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { ALL_USER_MESSAGES } from '../../workers/queries/user-message-rows';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = { delete_own_message_policy: 2, message_content_delete_limit_seconds: 600 };

t.test('deleting messages and topics', async (t) => {
  // No time budget and two messages per batch: every delete_topic call deletes one batch.
  const server = await startServer({ env: { DELETE_TOPIC_TIME_BUDGET_MS: '0', DELETE_TOPIC_BATCH_SIZE: '2' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  t.beforeEach(() => updateRealm(api, REALM_DEFAULTS));
  const general = await streamIdOf(api, 'general');
  const firstMessageId = async (streamId: number): Promise<number | null | undefined> => {
    const streams = (await api.get('/streams')).body['streams'] as { stream_id: number; first_message_id: number | null }[];
    return streams.find((s) => s.stream_id === streamId)?.first_message_id;
  };

  t.test('DELETE /messages/{message_id} errors', async (t) => {
    t.test('an unknown or invisible message is Invalid message(s)', async (t) => {
      const unknown = await api.call('DELETE', '/messages/999999');
      t.equal(unknown.status, 400);
      t.strictSame(unknown.body, badRequest('Invalid message(s)'));
      const secret = await api.post('/messages', { type: 'direct', to: [bob.id], content: 'just us' });
      const peek = await api.as(alice).call('DELETE', `/messages/${String(secret.body['id'])}`);
      t.strictSame(peek.body, badRequest('Invalid message(s)'));
    });
    t.test('by default only administrators delete, even their own messages for members', async (t) => {
      const own = await sendToStream(api.as(alice), 'general', 'delete', 'mine');
      const res = await api.as(alice).call('DELETE', `/messages/${own}`);
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest("You don't have permission to delete this message"));
    });
    t.test("members never delete other people's messages", async (t) => {
      await updateRealm(api, { delete_own_message_policy: 5 });
      const others = await sendToStream(api.as(bob), 'general', 'delete', 'bob wrote this');
      const res = await api.as(alice).call('DELETE', `/messages/${others}`);
      t.strictSame(res.body, badRequest("You don't have permission to delete this message"));
    });
    t.test('own messages can be deleted only within message_content_delete_limit_seconds (null: always)', async (t) => {
      const own = await sendToStream(api.as(alice), 'general', 'delete', 'old');
      realmFile.backdate(own, 601);
      await updateRealm(api, { delete_own_message_policy: 5 });
      const late = await api.as(alice).call('DELETE', `/messages/${own}`);
      t.strictSame(late.body, badRequest('The time limit for deleting this message has passed'));
      await updateRealm(api, { delete_own_message_policy: 5, message_content_delete_limit_seconds: 'unlimited' });
      const unlimited = await api.as(alice).call('DELETE', `/messages/${own}`);
      t.strictSame(unlimited.body, { result: 'success', msg: '' });
    });
  });

  t.test('a member allowed by delete_own_message_policy deletes their own recent message', async (t) => {
    await updateRealm(api, { delete_own_message_policy: 1 });
    const own = await sendToStream(api.as(alice), 'general', 'delete', 'regret');
    const res = await api.as(alice).call('DELETE', `/messages/${own}`);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const again = await api.as(alice).call('DELETE', `/messages/${own}`);
    t.strictSame(again.body, badRequest('Invalid message(s)'));
  });

  t.test('deleting a message removes its reactions and per-user rows and moves first_message_id', async (t) => {
    const { streamId: stream, noticeId } = await createStream(api, 'short lived', { principals: [1, alice.id] });
    const first = await sendToStream(api.as(alice), 'short lived', 'topic', 'first');
    const second = await sendToStream(api, 'short lived', 'topic', 'second');
    const reacted = await api.post(`/messages/${first}/reactions`, { emoji_name: 'smile' });
    t.equal(reacted.status, 200, reacted.text);
    t.equal(realmFile.value('SELECT count(*) FROM reactions WHERE message_id = ?', first), 1);
    t.equal(await firstMessageId(stream), noticeId, "the new-stream notice is the stream's first message");
    t.equal(realmFile.value(`SELECT count(*) FROM ${ALL_USER_MESSAGES} WHERE message_id = ?`, first), 2);

    const res = await api.call('DELETE', `/messages/${first}`);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame((await api.get(`/messages/${first}`)).body, badRequest('Invalid message(s)'));
    t.equal(realmFile.value(`SELECT count(*) FROM ${ALL_USER_MESSAGES} WHERE message_id = ?`, first), 0);
    t.equal(realmFile.value('SELECT count(*) FROM reactions WHERE message_id = ?', first), 0);
    t.equal(await firstMessageId(stream), noticeId, 'a later message leaves it alone');
    t.equal((await fetchMessage(api, second))['content'], '<p>second</p>', 'the other message stays');

    await api.call('DELETE', `/messages/${noticeId}`);
    t.equal(await firstMessageId(stream), second, 'the next oldest message');
    await api.call('DELETE', `/messages/${second}`);
    t.equal(await firstMessageId(stream), null, 'an empty stream has none');

    const third = await sendToStream(api.as(alice), 'short lived', 'topic', 'third');
    t.equal(await firstMessageId(stream), third, 'the next message to the emptied stream is its first');
    await sendToStream(api, 'short lived', 'topic', 'fourth');
    t.equal(await firstMessageId(stream), third, 'and the one after leaves it alone');
  });

  t.test('a direct message can be deleted by an administrator who received it', async (t) => {
    const sent = await api.as(alice).post('/messages', { type: 'direct', to: [1], content: 'hi boss' });
    const id = sent.body['id'] as number;
    const res = await api.call('DELETE', `/messages/${id}`);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame((await api.as(alice).get(`/messages/${id}`)).body, badRequest('Invalid message(s)'));
  });

  t.test('POST /streams/{stream_id}/delete_topic', async (t) => {
    t.test('only administrators may delete a topic', async (t) => {
      const res = await api.as(alice).post(`/streams/${general}/delete_topic`, { topic_name: 'anything' });
      t.equal(res.status, 400);
      t.strictSame(res.body, { result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    });
    t.test('the stream must exist and topic_name is required', async (t) => {
      const unknown = await api.post('/streams/9999/delete_topic', { topic_name: 'x' });
      t.strictSame(unknown.body, badRequest('Invalid stream ID'));
      const missing = await api.post(`/streams/${general}/delete_topic`, {});
      t.strictSame(missing.body, {
        result: 'error',
        msg: "Missing 'topic_name' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'topic_name',
      });
    });
    t.test('out of time, it answers partially_completed after each batch; calling again finishes, newest first', async (t) => {
      const ids: number[] = [];
      for (const n of [1, 2, 3, 4, 5]) ids.push(await sendToStream(api.as(alice), 'general', 'doomed', `doomed ${n}`));
      const kept = await sendToStream(api, 'general', 'survivor', 'not in the topic');
      const left = () => realmFile.topic(general, 'doomed').map((m) => m.id);

      const first = await api.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed' });
      t.equal(first.status, 200);
      t.strictSame(first.body, { result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT' });
      t.strictSame(left(), ids.slice(0, 3), 'the two newest went first');

      const second = await api.post(`/streams/${general}/delete_topic`, { topic_name: 'DOOMED' });
      t.strictSame(second.body, { result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT' }, 'topics match case-insensitively');
      t.strictSame(left(), ids.slice(0, 1));

      const last = await api.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed' });
      t.strictSame(last.body, { result: 'success', msg: '' });
      t.strictSame(left(), []);
      t.equal(realmFile.value(`SELECT count(*) FROM ${ALL_USER_MESSAGES} WHERE message_id IN (?, ?, ?, ?, ?)`, ...ids), 0);
      t.equal((await fetchMessage(api, kept))['content'], '<p>not in the topic</p>');

      const empty = await api.post(`/streams/${general}/delete_topic`, { topic_name: 'doomed' });
      t.strictSame(empty.body, { result: 'success', msg: '' }, 'deleting an empty topic succeeds');
    });
  });
});
