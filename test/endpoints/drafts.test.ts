import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { updateSettings } from '../helpers/people';
import { streamIdOf } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

t.test('drafts', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const aliceCredentials = await createMember(owner, 'Alice');
  const alice = owner.as(aliceCredentials);
  const bob = await createMember(owner, 'Bob');
  const generalId = await streamIdOf(owner, 'general');
  await owner.post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true });
  const hiddenId = await streamIdOf(owner, 'hidden');

  t.test('errors', async (t) => {
    const post = (draft: Record<string, unknown>) => alice.post('/drafts', { drafts: [draft] });
    t.test('a stream draft must name exactly one stream the user can see', async (t) => {
      t.strictSame(
        (await post({ type: 'stream', to: [], topic: 't', content: 'c' })).body,
        error('Must specify exactly 1 stream ID for stream messages'),
      );
      t.strictSame(
        (await post({ type: 'stream', to: [1, 2], topic: 't', content: 'c' })).body,
        error('Must specify exactly 1 stream ID for stream messages'),
      );
      t.strictSame((await post({ type: 'stream', to: [hiddenId], topic: 't', content: 'c' })).body, error('Invalid stream ID'));
      t.strictSame((await post({ type: 'stream', to: [9999], topic: 't', content: 'c' })).body, error('Invalid stream ID'));
    });
    t.test('a direct draft must name existing users', async (t) => {
      t.strictSame((await post({ type: 'private', to: [9999], topic: '', content: 'c' })).body, error('Invalid user ID 9999'));
    });
    t.test('content, topic, type and timestamp are checked', async (t) => {
      t.strictSame((await post({ type: 'private', to: [bob.id], topic: '', content: '  ' })).body, error('Message must not be empty'));
      t.strictSame(
        (await post({ type: 'private', to: [bob.id], topic: '', content: 'a\0b' })).body,
        error('Message must not contain null bytes'),
      );
      t.strictSame(
        (await post({ type: 'stream', to: [generalId], topic: 'a\0b', content: 'c' })).body,
        error('Topic must not contain null bytes'),
      );
      t.strictSame(
        (await post({ type: '', to: [], topic: '', content: 'c', timestamp: -5 })).body,
        error('Timestamp must not be negative.'),
      );
      const badType = await post({ type: 'huddle', to: [], topic: '', content: 'c' });
      t.strictSame(badType.body, { ...error('Invalid drafts[0]["type"]', 'REQUEST_VARIABLE_INVALID'), var_name: 'drafts' });
      const missing = await alice.post('/drafts', {});
      t.strictSame(missing.body, { ...error("Missing 'drafts' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'drafts' });
    });
    t.test("an unknown draft, or another user's, does not exist (404)", async (t) => {
      const bobsDraft = await owner.as(bob).post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'mine' }] });
      const bobsId = (bobsDraft.body['ids'] as number[])[0] as number;
      const edit = await alice.call('PATCH', `/drafts/${bobsId}`, { draft: { type: '', to: [], topic: '', content: 'x' } });
      t.equal(edit.status, 404);
      t.strictSame(edit.body, error('Draft does not exist'));
      const del = await alice.call('DELETE', '/drafts/9999');
      t.equal(del.status, 404);
      t.strictSame(del.body, error('Draft does not exist'));
    });
    t.test('a user who turned synchronization off is refused', async (t) => {
      await updateSettings(owner.as(bob), { enable_drafts_synchronization: false });
      t.teardown(() => updateSettings(owner.as(bob), { enable_drafts_synchronization: true }));
      const res = await owner.as(bob).post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'c' }] });
      t.strictSame(res.body, error('User has disabled synchronizing drafts.'));
      t.strictSame((await owner.as(bob).call('DELETE', '/drafts/1')).body, error('User has disabled synchronizing drafts.'));
    });
  });

  t.test("create, list, edit and delete drafts, each reaching the user's queue", async (t) => {
    const reader = await EventReader.register(alice, { event_types: ['drafts'] });
    const created = await alice.post('/drafts', {
      drafts: [
        { type: 'stream', to: [generalId], topic: 'x'.repeat(70), content: 'plan  ', timestamp: 1595479019 },
        { type: 'private', to: [bob.id, bob.id], topic: 'ignored', content: 'hi bob', timestamp: 1595479020.5 },
      ],
    });
    t.equal(created.status, 200);
    t.strictSame(responseViolations('post', '/drafts', created.body), [], 'the body conforms to the reference OpenAPI');
    const [streamDraft, directDraft] = created.body['ids'] as [number, number];
    const first = {
      id: streamDraft,
      type: 'stream',
      to: [generalId],
      topic: `${'x'.repeat(57)}...`,
      content: 'plan',
      timestamp: 1595479019,
    };
    const second = { id: directDraft, type: 'private', to: [bob.id], topic: '', content: 'hi bob', timestamp: 1595479020 };
    t.strictSame(await reader.nextPayloads(), [{ type: 'drafts', op: 'add', drafts: [first, second] }]);

    const listed = await alice.get('/drafts');
    t.strictSame(listed.body, { result: 'success', msg: '', count: 2, drafts: [second, first] }, 'newest first');
    t.strictSame(responseViolations('get', '/drafts', listed.body), []);
    t.strictSame((await alice.post('/register', { fetch_event_types: ['drafts'] })).body['drafts'], [second, first]);

    // The public API's wire form: a JSON-encoded object in a urlencoded body.
    const edited = await alice.call('PATCH', `/drafts/${streamDraft}`, {
      draft: JSON.stringify({ type: '', to: [], topic: 'dropped', content: 'later', timestamp: 1595479030 }),
    });
    t.strictSame(edited.body, { result: 'success', msg: '' });
    t.strictSame(await reader.nextPayloads(), [
      { type: 'drafts', op: 'update', draft: { id: streamDraft, type: '', to: [], topic: '', content: 'later', timestamp: 1595479030 } },
    ]);

    const deleted = await alice.call('DELETE', `/drafts/${directDraft}`);
    t.strictSame(deleted.body, { result: 'success', msg: '' });
    t.strictSame(await reader.nextPayloads(), [{ type: 'drafts', op: 'remove', draft_id: directDraft }]);
    t.strictSame((await alice.get('/drafts')).body['count'], 1);
  });

  t.test('turning synchronization off deletes the stored drafts and refuses new ones; turning it on again starts empty', async (t) => {
    const carol = owner.as(await createMember(owner, 'Carol'));
    const created = await carol.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'kept until sync goes off' }] });
    t.equal(created.status, 200, created.text);
    t.equal((await carol.get('/drafts')).body['count'], 1);
    t.strictSame((await carol.call('PATCH', '/settings', { enable_drafts_synchronization: false })).body['result'], 'success');
    t.strictSame((await carol.get('/drafts')).body, { result: 'success', msg: '', count: 0, drafts: [] }, 'the stored drafts are gone');
    t.strictSame(
      (await carol.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] })).body,
      error('User has disabled synchronizing drafts.'),
    );
    t.strictSame((await carol.call('PATCH', '/settings', { enable_drafts_synchronization: true })).body['result'], 'success');
    t.strictSame((await carol.get('/drafts')).body, { result: 'success', msg: '', count: 0, drafts: [] }, 'and do not come back');
  });
});
