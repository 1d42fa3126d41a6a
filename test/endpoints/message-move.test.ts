import t from 'tap';
import { ApiClient, badRequest } from '../helpers/http';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { RealmFile, sendToStream, streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';
import { ALL_USER_MESSAGES } from '../../workers/queries/user-message-rows';

// The realm settings these tests change, at their defaults (SPEC PATCH /realm).
const REALM_DEFAULTS = {
  edit_topic_policy: 5,
  move_messages_between_streams_policy: 2,
  move_messages_between_streams_limit_seconds: 604800,
  move_messages_within_stream_limit_seconds: 604800,
};

const DAY_S = 24 * 60 * 60;

t.test('PATCH /messages/{message_id}: moving messages between topics and streams', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const owner = await api.get('/users/me');
  const ownerMention = `@_**${String(owner.body['full_name'])}|${String(owner.body['user_id'])}**`;
  const aliceProfile = await api.as(alice).get('/users/me');
  const aliceMention = `@_**${String(aliceProfile.body['full_name'])}|${alice.id}**`;
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  t.beforeEach(() => updateRealm(api, REALM_DEFAULTS));
  const general = await streamIdOf(api, 'general');
  const contents = (streamId: number, topic: string) => realmFile.topic(streamId, topic).map((m) => m.content);

  /** Four messages in a new topic of general, oldest first. */
  const topicOfFour = async (topic: string, client = api): Promise<number[]> => {
    const ids: number[] = [];
    for (const n of [1, 2, 3, 4]) ids.push(await sendToStream(client, 'general', topic, `message ${n}`));
    return ids;
  };

  t.test('errors', async (t) => {
    t.test('topic edits follow edit_topic_policy', async (t) => {
      const [id] = await topicOfFour('policy');
      await updateRealm(api, { edit_topic_policy: 2 });
      const res = await api.as(alice).call('PATCH', `/messages/${String(id)}`, { topic: 'renamed' });
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest("You don't have permission to edit this message"));
      await updateRealm(api, { edit_topic_policy: 6 });
      const nobody = await api.call('PATCH', `/messages/${String(id)}`, { topic: 'renamed' });
      t.strictSame(nobody.body, badRequest("You don't have permission to edit this message"), 'nobody means administrators too');
    });
    t.test('members may move a message within a stream only within the time limit; administrators always', async (t) => {
      const id = await sendToStream(api.as(alice), 'general', 'old news', 'from long ago');
      realmFile.backdate(id, 8 * DAY_S);
      const late = await api.as(alice).call('PATCH', `/messages/${id}`, { topic: 'renamed' });
      t.strictSame(late.body, badRequest("The time limit for editing this message's topic has passed."));
      const admin = await api.call('PATCH', `/messages/${id}`, { topic: 'renamed', send_notification_to_new_thread: false });
      t.equal(admin.status, 200, admin.text);
    });
    t.test('moving to another stream follows move_messages_between_streams_policy (default: administrators)', async (t) => {
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'elsewhere' }], principals: [alice.id, 1] });
      const elsewhere = await streamIdOf(api, 'elsewhere');
      const id = await sendToStream(api.as(alice), 'general', 'move me', 'x');
      const res = await api.as(alice).call('PATCH', `/messages/${id}`, { stream_id: elsewhere });
      t.strictSame(res.body, badRequest("You don't have permission to move this message"));
      await updateRealm(api, { move_messages_between_streams_policy: 1, move_messages_between_streams_limit_seconds: 3600 });
      realmFile.backdate(id, 7200);
      const late = await api.as(alice).call('PATCH', `/messages/${id}`, { stream_id: elsewhere });
      t.strictSame(late.body, badRequest("The time limit for editing this message's stream has passed"));
    });
    t.test('the target stream must exist and be readable by the mover', async (t) => {
      const id = await sendToStream(api, 'general', 'move me', 'x');
      const unknown = await api.call('PATCH', `/messages/${id}`, { stream_id: 9999 });
      t.strictSame(unknown.body, badRequest('Invalid stream ID'));
      await api.as(alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'alice-secret' }], invite_only: true });
      const secret = await streamIdOf(api, 'alice-secret');
      const closed = await api.call('PATCH', `/messages/${id}`, { stream_id: secret });
      t.strictSame(closed.body, badRequest('Invalid stream ID'));
    });
    t.test('change_all past the time limit names the part of the topic the user may move', async (t) => {
      const ids = await topicOfFour('partly old', api.as(alice));
      await updateRealm(api, { move_messages_within_stream_limit_seconds: 3600 });
      realmFile.backdate(ids[0] as number, 7200);
      realmFile.backdate(ids[1] as number, 7200);
      const res = await api.as(alice).call('PATCH', `/messages/${String(ids[3])}`, { topic: 'all new', propagate_mode: 'change_all' });
      t.equal(res.status, 400);
      t.strictSame(res.body, {
        result: 'error',
        msg: 'You only have permission to move the 2/4 most recent messages in this topic.',
        code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
        first_message_id_allowed_to_move: ids[2],
        total_messages_in_topic: 4,
        total_messages_allowed_to_move: 2,
      });
      t.strictSame(contents(general, 'partly old'), ['message 1', 'message 2', 'message 3', 'message 4'], 'nothing moved');

      t.test('the suggested retry with change_later from first_message_id_allowed_to_move succeeds', async (t) => {
        const retry = await api.as(alice).call('PATCH', `/messages/${String(ids[2])}`, {
          topic: 'all new',
          propagate_mode: 'change_later',
          send_notification_to_new_thread: false,
        });
        t.equal(retry.status, 200, retry.text);
        t.strictSame(contents(general, 'partly old'), ['message 1', 'message 2']);
        t.strictSame(contents(general, 'all new'), ['message 3', 'message 4']);
      });
      t.test('moderators and administrators are exempt', async (t) => {
        const res = await api.call('PATCH', `/messages/${String(ids[0])}`, {
          topic: 'all new',
          propagate_mode: 'change_all',
          send_notification_to_new_thread: false,
        });
        t.equal(res.status, 200, res.text);
        t.strictSame(contents(general, 'partly old'), []);
      });
    });
  });

  t.test('change_one moves only the target and says so in the new topic', async (t) => {
    const ids = await topicOfFour('one of four');
    const res = await api.call('PATCH', `/messages/${String(ids[1])}`, { topic: 'just one' });
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(contents(general, 'one of four'), ['message 1', 'message 3', 'message 4']);
    t.strictSame(contents(general, 'just one'), [
      'message 2',
      `A message was moved here from #**general>one of four** by ${ownerMention}.`,
    ]);
    const moved = await fetchMessage(api, ids[1]);
    t.equal(moved['subject'], 'just one');
    t.strictSame(moved['topic_links'], []);
  });

  t.test('change_later moves the target and everything after it, with notices in both threads', async (t) => {
    const ids = await topicOfFour('later');
    const res = await api.call('PATCH', `/messages/${String(ids[1])}`, {
      topic: 'later part',
      propagate_mode: 'change_later',
      send_notification_to_old_thread: true,
    });
    t.equal(res.status, 200, res.text);
    t.strictSame(contents(general, 'later'), [
      'message 1',
      `3 messages were moved from this topic to #**general>later part** by ${ownerMention}.`,
    ]);
    t.strictSame(contents(general, 'later part'), [
      'message 2',
      'message 3',
      'message 4',
      `3 messages were moved here from #**general>later** by ${ownerMention}.`,
    ]);
    const history = (await fetchMessage(api, ids[3]))['edit_history'] as Record<string, unknown>[];
    hasFields(t, history[0], { prev_topic: 'later', topic: 'later part', user_id: 1 }, 'every moved message records the move');
  });

  t.test('change_all moves the whole topic', async (t) => {
    const ids = await topicOfFour('whole');
    const res = await api.call('PATCH', `/messages/${String(ids[2])}`, {
      topic: 'whole moved',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    t.equal(res.status, 200, res.text);
    t.strictSame(contents(general, 'whole'), [`This topic was moved to #**general>whole moved** by ${ownerMention}.`]);
    t.strictSame(contents(general, 'whole moved'), [
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      `This topic was moved here from #**general>whole** by ${ownerMention}.`,
    ]);
  });

  t.test('no notice goes to the new thread when send_notification_to_new_thread is false', async (t) => {
    const ids = await topicOfFour('quiet');
    await api.call('PATCH', `/messages/${String(ids[0])}`, {
      topic: 'quiet moved',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    t.strictSame(contents(general, 'quiet moved'), ['message 1', 'message 2', 'message 3', 'message 4']);
    t.strictSame(contents(general, 'quiet'), []);
  });

  t.test('resolving and unresolving a topic posts only the resolve notice', async (t) => {
    const ids = await topicOfFour('bug 42', api.as(alice));
    const resolve = await api.as(alice).call('PATCH', `/messages/${String(ids[0])}`, { topic: '✔ bug 42', propagate_mode: 'change_all' });
    t.equal(resolve.status, 200, resolve.text);
    t.strictSame(contents(general, 'bug 42'), []);
    t.strictSame(contents(general, '✔ bug 42'), [
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      `${aliceMention} has marked this topic as resolved.`,
    ]);
    const unresolve = await api.as(alice).call('PATCH', `/messages/${String(ids[0])}`, { topic: 'bug 42', propagate_mode: 'change_all' });
    t.equal(unresolve.status, 200, unresolve.text);
    // The resolve notice is part of the topic now, so it moves back with it.
    t.strictSame(contents(general, 'bug 42'), [
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      `${aliceMention} has marked this topic as resolved.`,
      `${aliceMention} has marked this topic as unresolved.`,
    ]);
    t.strictSame(contents(general, '✔ bug 42'), []);
  });

  t.test('moving to another stream', async (t) => {
    // The messages are older than the new stream's notice, so moving them in moves its first_message_id.
    const ids = await topicOfFour('to archive');
    const { streamId: archive, noticeId } = await createStream(api, 'archive', { principals: [bob.id, 1] });
    const res = await api.call('PATCH', `/messages/${String(ids[0])}`, {
      stream_id: archive,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    t.equal(res.status, 200, res.text);
    t.strictSame(contents(general, 'to archive'), [`This topic was moved to #**archive>to archive** by ${ownerMention}.`]);
    t.strictSame(contents(archive, 'to archive'), [
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      `This topic was moved here from #**general>to archive** by ${ownerMention}.`,
    ]);
    const moved = await fetchMessage(api, ids[0]);
    t.equal(moved['stream_id'], archive);
    t.equal(moved['display_recipient'], 'archive');
    const archiveRecipient = realmFile.value('SELECT recipient_id FROM streams WHERE id = ?', archive);
    t.equal(moved['recipient_id'], archiveRecipient);
    hasFields(t, (moved['edit_history'] as unknown[])[0], { prev_stream: general, stream: archive, user_id: 1 });
    t.notOk('prev_topic' in ((moved['edit_history'] as Record<string, unknown>[])[0] ?? {}), 'the topic did not change');

    t.test('first_message_id of both streams stays right', async (t) => {
      const streams = (await api.get('/streams')).body['streams'] as { stream_id: number; first_message_id: number | null }[];
      t.ok((ids[0] as number) < noticeId, 'the moved messages are older than the notice');
      t.equal(streams.find((s) => s.stream_id === archive)?.first_message_id, ids[0]);
      const oldest = realmFile.value('SELECT min(id) FROM messages WHERE stream_id = ?', general);
      t.equal(streams.find((s) => s.stream_id === general)?.first_message_id, oldest);
    });
    t.test('subscribers of the new stream who lacked the messages get them as read; others keep their flags', async (t) => {
      t.strictSame((await fetchMessage(api.as(bob), ids[1]))['flags'], [], 'bob had it from general, unread');
      await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'drafts' }] });
      const draft = await sendToStream(api, 'drafts', 'draft', 'not for bob yet');
      t.strictSame(
        await api
          .as(bob)
          .get(`/messages/${draft}`)
          .then((r) => r.body['msg']),
        '',
        'public history is readable anyway',
      );
      t.equal(realmFile.value(`SELECT count(*) FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`, bob.id, draft), 0);
      await api.call('PATCH', `/messages/${draft}`, { stream_id: archive, send_notification_to_new_thread: false });
      t.equal(realmFile.value(`SELECT flags FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`, bob.id, draft), 1);
      t.strictSame((await fetchMessage(api.as(bob), draft))['flags'], ['read']);
    });
  });

  t.test('moving into a private stream takes the messages away from those not subscribed to it', async (t) => {
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], invite_only: true });
    const vault = await streamIdOf(api, 'vault');
    const id = await sendToStream(api, 'general', 'sensitive', 'secret plans');
    t.equal((await fetchMessage(api.as(alice), id))['id'], id, 'alice can read it in general');
    const res = await api.call('PATCH', `/messages/${id}`, { stream_id: vault, send_notification_to_new_thread: false });
    t.equal(res.status, 200, res.text);
    const asAlice = await api.as(alice).get(`/messages/${id}`);
    t.strictSame(asAlice.body, badRequest('Invalid message(s)'));
    t.equal(realmFile.value(`SELECT count(*) FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`, alice.id, id), 0);
  });

  t.test('in a stream with protected history only the messages the mover received move, without the time-limit error', async (t) => {
    await api.post('/users/me/subscriptions', {
      subscriptions: [{ name: 'protected' }],
      invite_only: true,
      history_public_to_subscribers: false,
    });
    const protectedStream = await streamIdOf(api, 'protected');
    const before = await sendToStream(api, 'protected', 'plans', 'before alice joined');
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'protected' }], principals: [alice.id] });
    const mine = [
      await sendToStream(api.as(alice), 'protected', 'plans', 'alice 1'),
      await sendToStream(api.as(alice), 'protected', 'plans', 'alice 2'),
    ];
    await updateRealm(api, { move_messages_within_stream_limit_seconds: 3600 });
    realmFile.backdate(before, 7200);
    const res = await api.as(alice).call('PATCH', `/messages/${String(mine[1])}`, {
      topic: 'alice plans',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: false,
    });
    t.equal(res.status, 200, res.text);
    t.strictSame(contents(protectedStream, 'plans'), ['before alice joined']);
    t.strictSame(contents(protectedStream, 'alice plans'), ['alice 1', 'alice 2']);
  });
});
