import t from 'tap';
import { createMember, fetchMessage, type Member } from '../helpers/fixtures';
import { ApiClient } from '../helpers/http';
import { RealmFile } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { createStream } from '../helpers/stream-notices';
import { hasFields } from '../helpers/exact';

type Message = Record<string, unknown>;

// The shard keeps each message object's JSON between fetches (queries/message-json.ts). Each
// case below fetches a page once so its messages are cached, changes something the page
// shows, and fetches again: the second page must show the change.
t.test('GET /messages after changes to what its cached messages show', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const owner = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(owner, 'Alice');
  const bob = await createMember(owner, 'Bob');
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());
  const as = (who: Member) => owner.as(who);

  const { streamId } = await createStream(as(alice), 'cache-stream');
  t.equal((await as(bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'cache-stream' }] })).status, 200);
  const sent = await as(alice).post('/messages', {
    type: 'stream',
    to: 'cache-stream',
    topic: 'plans',
    content: `hello @**${bob.fullName}**`,
  });
  t.equal(sent.status, 200, sent.text);
  const id = sent.body['id'] as number;

  const page = async (who: Member, extra: Record<string, string | number | boolean> = {}): Promise<Message> => {
    const res = await as(who).get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'stream', operand: streamId }],
      ...extra,
    });
    if (res.status !== 200) throw new Error(res.text);
    const found = (res.body['messages'] as Message[]).find((m) => m['id'] === id);
    if (!found) throw new Error(`message ${id} is not on the page: ${res.text}`);
    return found;
  };

  t.test('a page read twice is the same, and each viewer gets their own flags', async (t) => {
    const first = await page(alice);
    const again = await page(alice);
    t.strictSame(again, first);
    t.strictSame(first['flags'], [], 'alice sent it through the API: not marked read (as the public API)');
    t.strictSame((await page(bob))['flags'], ['mentioned'], "bob's flags, not alice's");
    t.strictSame((await page(alice))['flags'], [], "alice's again, not bob's");
  });

  t.test('each variant of a message is its own', async (t) => {
    const html = await page(alice);
    t.equal(html['content'], `<p>hello <span class="user-mention" data-user-id="${bob.id}">@${bob.fullName}</span></p>`);
    const markdown = await page(alice, { apply_markdown: false });
    t.equal(markdown['content'], `hello @**${bob.fullName}**`);
    t.equal(markdown['content_type'], 'text/x-markdown');
    t.equal((await page(alice))['content'], html['content'], 'the HTML again after the Markdown');
    t.equal(html['avatar_url'], null, 'client_extavatar defaults to true: the client computes it');
    t.match((await page(alice, { client_extavatar: false }))['avatar_url'], /^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  t.test('a reaction added and removed', async (t) => {
    await page(bob);
    t.equal((await as(bob).post(`/messages/${id}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
    const reacted = await page(alice);
    hasFields(t, reacted['reactions'], [{ emoji_name: 'thumbs_up', emoji_code: '1f44d', user_id: bob.id }]);
    t.equal((await as(bob).call('DELETE', `/messages/${id}/reactions`, { emoji_name: 'thumbs_up' })).status, 200);
    t.strictSame((await page(alice))['reactions'], []);
  });

  t.test('an edit of the content, and the edit history setting', async (t) => {
    await page(alice);
    t.equal((await as(alice).call('PATCH', `/messages/${id}`, { content: 'edited words' })).status, 200);
    const edited = await page(alice);
    t.equal(edited['content'], '<p>edited words</p>');
    t.type(edited['last_edit_timestamp'], 'number');
    hasFields(t, edited['edit_history'], [{ prev_content: `hello @**${bob.fullName}**`, user_id: alice.id }]);
    t.strictSame((await page(bob))['flags'], [], "the mention is gone from bob's flags");

    const hide = await owner.call('PATCH', '/realm', { allow_edit_history: false });
    t.equal(hide.status, 200, hide.text);
    const hidden = await page(alice);
    t.notOk('edit_history' in hidden, 'no edit history while the realm hides it');
    t.type(hidden['last_edit_timestamp'], 'number');
    t.notOk('edit_history' in (await fetchMessage(as(alice), id)), 'GET /messages/{id} agrees');
    t.equal((await owner.call('PATCH', '/realm', { allow_edit_history: true })).status, 200);
    t.ok('edit_history' in (await page(alice)));
  });

  t.test("the sender's name and the stream's name", async (t) => {
    await page(bob);
    t.equal((await as(alice).call('PATCH', '/settings', { full_name: 'Alice Renamed' })).status, 200);
    t.equal((await page(bob))['sender_full_name'], 'Alice Renamed');
    const renamed = await owner.call('PATCH', `/streams/${streamId}`, { new_name: 'cache-renamed' });
    t.equal(renamed.status, 200, renamed.text);
    t.equal((await page(bob))['display_recipient'], 'cache-renamed');
  });

  t.test('a topic move', async (t) => {
    await page(bob);
    const moved = await as(alice).call('PATCH', `/messages/${id}`, { topic: 'moved plans', propagate_mode: 'change_one' });
    t.equal(moved.status, 200, moved.text);
    t.equal((await page(bob))['subject'], 'moved plans');
  });

  t.test('a search page adds its match fields to the cached message', async (t) => {
    await page(bob);
    const res = await as(bob).get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'search', operand: 'edited' }],
    });
    const found = (res.body['messages'] as Message[]).find((m) => m['id'] === id);
    t.equal(found?.['match_subject'], 'moved plans');
    t.equal(found?.['match_content'], '<p><span class="highlight">edited</span> words</p>');
    t.strictSame(found?.['flags'], []);
    t.equal(found?.['content'], '<p>edited words</p>');
  });
  t.test('a write to the realm file by another connection', async (t) => {
    await page(bob);
    // A backup tool or an operator's SQLite shell: no action of the server runs, triggers do. Kept a
    // file write: an outside write is what this test is about.
    realmFile.run("UPDATE messages SET rendered_content = '<p>patched by hand</p>' WHERE id = ?", id);
    t.equal((await page(bob))['content'], '<p>patched by hand</p>');
  });
});
