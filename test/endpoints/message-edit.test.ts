import t from 'tap';
import { ApiClient, badRequest } from '../helpers/http';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { RealmFile, sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = { allow_message_editing: true, message_content_edit_limit_seconds: 600, allow_edit_history: true };

t.test('PATCH /messages/{message_id}: content edits and edit history', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const bobName = String((await api.as(bob).get('/users/me')).body['full_name']);
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  t.beforeEach(() => updateRealm(api, REALM_DEFAULTS));

  t.test('errors', async (t) => {
    t.test('an unknown message is Invalid message(s)', async (t) => {
      const res = await api.call('PATCH', '/messages/999999', { content: 'x' });
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest('Invalid message(s)'));
    });
    t.test('a request that changes nothing is refused', async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'original');
      const empty = await api.call('PATCH', `/messages/${id}`, {});
      t.strictSame(empty.body, badRequest('Nothing to change'));
      const sameTopic = await api.call('PATCH', `/messages/${id}`, { topic: ' errors ' });
      t.strictSame(sameTopic.body, badRequest('Nothing to change'));
    });
    t.test("only the sender may edit a message's content", async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'the owner wrote this');
      const res = await api.as(alice).call('PATCH', `/messages/${id}`, { content: 'alice was here' });
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest("You don't have permission to edit this message"));
    });
    t.test('content and stream_id together are refused', async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'x');
      const res = await api.call('PATCH', `/messages/${id}`, { content: 'y', stream_id: 1 });
      t.strictSame(res.body, badRequest('Cannot change message content while changing stream'));
    });
    t.test('a direct message has no topic and cannot move to a stream', async (t) => {
      const sent = await api.post('/messages', { type: 'direct', to: [alice.id], content: 'psst' });
      const id = sent.body['id'] as number;
      const topic = await api.call('PATCH', `/messages/${id}`, { topic: 'new' });
      t.strictSame(topic.body, badRequest('Direct messages cannot have topics.'));
      const stream = await api.call('PATCH', `/messages/${id}`, { stream_id: 1 });
      t.strictSame(stream.body, badRequest('Direct messages cannot be moved to streams.'));
    });
    t.test('propagate_mode other than change_one needs a topic or stream change', async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'x');
      const res = await api.call('PATCH', `/messages/${id}`, { content: 'y', propagate_mode: 'change_all' });
      t.strictSame(res.body, badRequest('Invalid propagate_mode without topic edit'));
      const bad = await api.call('PATCH', `/messages/${id}`, { topic: 'z', propagate_mode: 'change_some' });
      t.strictSame(bad.body, {
        result: 'error',
        msg: 'Invalid propagate_mode',
        code: 'REQUEST_VARIABLE_INVALID',
        var_name: 'propagate_mode',
      });
    });
    t.test('a blank topic is refused, and topic with subject is confusing', async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'x');
      const blank = await api.call('PATCH', `/messages/${id}`, { topic: '   ' });
      t.strictSame(blank.body, badRequest("Topic can't be empty!"));
      const both = await api.call('PATCH', `/messages/${id}`, { topic: 'a', subject: 'b' });
      t.strictSame(both.body, {
        result: 'error',
        msg: "Can't decide between 'topic' and 'subject' arguments",
        code: 'REQUEST_CONFUSING_VAR',
        var_name1: 'topic',
        var_name2: 'subject',
      });
    });
    t.test('content edits are refused when the organization turned editing off', async (t) => {
      const id = await sendToStream(api, 'general', 'errors', 'x');
      await updateRealm(api, { allow_message_editing: false });
      const res = await api.call('PATCH', `/messages/${id}`, { content: 'y' });
      t.strictSame(res.body, badRequest('Your organization has turned off message editing'));
    });
    t.test('content edits end message_content_edit_limit_seconds after sending (default 600), not when it is null', async (t) => {
      const id = await sendToStream(api.as(alice), 'general', 'errors', 'old words');
      realmFile.backdate(id, 600 + 21);
      const late = await api.as(alice).call('PATCH', `/messages/${id}`, { content: 'new words' });
      t.strictSame(late.body, badRequest('The time limit for editing this message has passed'));
      await updateRealm(api, { message_content_edit_limit_seconds: 'unlimited' });
      const unlimited = await api.as(alice).call('PATCH', `/messages/${id}`, { content: 'new words' });
      t.equal(unlimited.status, 200);
      t.equal((await fetchMessage(api, id, false))['content'], 'new words');
    });
    t.test('within the limit plus its 20-second grace an edit is accepted', async (t) => {
      const id = await sendToStream(api.as(alice), 'general', 'errors', 'old words');
      await updateRealm(api, { message_content_edit_limit_seconds: 60 });
      realmFile.backdate(id, 75);
      const res = await api.as(alice).call('PATCH', `/messages/${id}`, { content: 'in time' });
      t.strictSame(res.body, { result: 'success', msg: '' });
    });
  });

  t.test('a content edit re-renders the message and records the previous version', async (t) => {
    const id = await sendToStream(api, 'general', 'content', 'first *draft*');
    const res = await api.call('PATCH', `/messages/${id}`, { content: 'final **text**' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    const fetched = await api.get(`/messages/${id}`);
    const message = fetched.body['message'] as Record<string, unknown>;
    t.equal(fetched.body['raw_content'], 'final **text**');
    t.equal(message['content'], '<p>final <strong>text</strong></p>');
    t.type(message['last_edit_timestamp'], 'number');
    const history = message['edit_history'] as Record<string, unknown>[];
    t.strictSame(history, [
      {
        user_id: 1,
        timestamp: message['last_edit_timestamp'],
        prev_content: 'first *draft*',
        prev_rendered_content: '<p>first <em>draft</em></p>',
        prev_rendered_content_version: 1,
      },
    ]);
  });

  t.test('an emptied message becomes "(deleted)"', async (t) => {
    const id = await sendToStream(api, 'general', 'content', 'oops');
    await api.call('PATCH', `/messages/${id}`, { content: '  ' });
    t.equal((await fetchMessage(api, id, false))['content'], '(deleted)');
  });

  t.test('mention flags follow the new content and read stays set', async (t) => {
    const id = await sendToStream(api.as(alice), 'general', 'mentions', 'hello all');
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], [], 'bob has no flags yet');
    const read = await api.as(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    t.equal(read.status, 200, read.text);
    await api.as(alice).call('PATCH', `/messages/${id}`, { content: `hello @**${bobName}**` });
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], ['read', 'mentioned']);
    await api.as(alice).call('PATCH', `/messages/${id}`, { content: 'hello again' });
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], ['read']);
  });

  t.test('edit history lists a content edit and then a topic edit, most recent first', async (t) => {
    const id = await sendToStream(api, 'general', 'history one', 'version 1');
    await api.call('PATCH', `/messages/${id}`, { content: 'version 2' });
    const renamed = await api.call('PATCH', `/messages/${id}`, { subject: 'history two', send_notification_to_new_thread: false });
    t.equal(renamed.status, 200, renamed.text);
    const message = await fetchMessage(api, id);
    t.equal(message['subject'], 'history two');
    const history = message['edit_history'] as Record<string, unknown>[];
    t.equal(history.length, 2);
    t.strictSame(history[0], { user_id: 1, timestamp: message['last_edit_timestamp'], prev_topic: 'history one', topic: 'history two' });
    hasFields(t, history[1], {
      user_id: 1,
      prev_content: 'version 1',
      prev_rendered_content: '<p>version 1</p>',
      prev_rendered_content_version: 1,
    });

    t.test('GET /messages/{message_id}/history gives one snapshot per version, oldest first', async (t) => {
      const res = await api.get(`/messages/${id}/history`);
      t.equal(res.status, 200);
      const snapshots = res.body['message_history'] as Record<string, unknown>[];
      t.equal(snapshots.length, 3);
      t.strictSame(snapshots[0], {
        content: 'version 1',
        rendered_content: '<p>version 1</p>',
        timestamp: (await fetchMessage(api, id))['timestamp'],
        topic: 'history one',
        user_id: 1,
      });
      t.strictSame(snapshots[1], {
        content: 'version 2',
        rendered_content: '<p>version 2</p>',
        prev_content: 'version 1',
        prev_rendered_content: '<p>version 1</p>',
        content_html_diff:
          '<div><p>version <span class="highlight_text_inserted">2</span> <span class="highlight_text_deleted">1</span></p></div>',
        timestamp: history[1]?.['timestamp'],
        topic: 'history one',
        user_id: 1,
      });
      t.strictSame(snapshots[2], {
        content: 'version 2',
        rendered_content: '<p>version 2</p>',
        prev_topic: 'history one',
        timestamp: history[0]?.['timestamp'],
        topic: 'history two',
        user_id: 1,
      });
    });
    t.test('content_html_diff marks the words each content edit inserted and deleted, in the new rendering', async (t) => {
      const edited = await sendToStream(api, 'general', 'diffs', 'one **two** three');
      t.equal((await api.call('PATCH', `/messages/${edited}`, { content: 'one three four' })).status, 200);
      t.equal((await api.call('PATCH', `/messages/${edited}`, { topic: 'diffs renamed' })).status, 200);
      t.equal((await api.call('PATCH', `/messages/${edited}`, { content: 'one three four\n\n* and a list' })).status, 200);
      const snapshots = (await api.get(`/messages/${edited}/history`)).body['message_history'] as Record<string, unknown>[];
      t.strictSame(
        snapshots.map((snapshot) => snapshot['content_html_diff']),
        [
          undefined,
          '<div><p>one <span class="highlight_text_deleted">two</span> three <span class="highlight_text_inserted">four</span></p></div>',
          undefined,
          '<div><p>one three four</p>\n<ul>\n<li><span class="highlight_text_inserted">and a list</span></li>\n</ul></div>',
        ],
        'only content edits have a diff',
      );
    });
    t.test('the history of a message never edited is its original snapshot', async (t) => {
      const plain = await sendToStream(api, 'general', 'plain', 'as sent');
      const res = await api.get(`/messages/${plain}/history`);
      t.strictSame(res.body['message_history'], [
        {
          content: 'as sent',
          rendered_content: '<p>as sent</p>',
          timestamp: (await fetchMessage(api, plain))['timestamp'],
          topic: 'plain',
          user_id: 1,
        },
      ]);
    });
    t.test('a message the user cannot see has no history for them', async (t) => {
      const secret = await api.post('/messages', { type: 'direct', to: [bob.id], content: 'just us' });
      const res = await api.as(alice).get(`/messages/${String(secret.body['id'])}/history`);
      t.strictSame(res.body, badRequest('Invalid message(s)'));
    });
    t.test('an organization that disabled edit history shows none', async (t) => {
      await updateRealm(api, { allow_edit_history: false });
      const res = await api.get(`/messages/${id}/history`);
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest('Message edit history is disabled in this organization'));
      const message = await fetchMessage(api, id);
      t.notOk('edit_history' in message, 'the message hides edit_history');
      t.type(message['last_edit_timestamp'], 'number');
    });
  });
});
