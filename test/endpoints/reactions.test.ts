import path from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { startServer } from '../helpers/server';
import { pngUpload, postFiles } from '../helpers/files';
import { ALL_USER_MESSAGES } from '../../workers/queries/user-message-rows';

type Reaction = Record<string, unknown>;

const BAD = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

t.test('reactions', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  // Custom emoji through the API: one in use, one uploaded and then removed.
  const addEmoji = async (name: string): Promise<string> => {
    const added = await postFiles(server.baseUrl, `/realm/emoji/${name}`, server.owner, pngUpload());
    if (added.status !== 200) throw new Error(`emoji ${name}: ${added.status}`);
    const listed = (await api.get('/realm/emoji')).body['emoji'] as Record<string, { id: string; name: string }>;
    const id = Object.values(listed).find((emoji) => emoji.name === name)?.id;
    if (id === undefined) throw new Error(`emoji ${name} is not listed`);
    return id;
  };
  const partyId = await addEmoji('party_parrot');
  const retiredId = await addEmoji('retired');
  t.equal((await api.call('DELETE', '/realm/emoji/retired')).status, 200);

  const send = async (client: ApiClient, params: Record<string, string | number | object>) => {
    const res = await client.post('/messages', params);
    return Number(res.body['id']);
  };
  const reactionsOf = async (client: ApiClient, id: number) => (await fetchMessage(client, id))['reactions'] as Reaction[];
  const react = (client: ApiClient, id: number, params: Record<string, string>) => client.post(`/messages/${id}/reactions`, params);
  const unreact = (client: ApiClient, id: number, params: Record<string, string>) =>
    client.call('DELETE', `/messages/${id}/reactions`, params);

  const general = await send(api, { type: 'stream', to: 'general', topic: 'reactions', content: 'react here' });

  t.test('errors', async (t) => {
    t.test('an unknown message is Invalid message(s)', async (t) => {
      const res = await react(api, 999999, { emoji_name: 'octopus' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Invalid message(s)'));
      t.strictSame((await unreact(api, 999999, { emoji_name: 'octopus' })).body, BAD('Invalid message(s)'));
    });
    t.test("another people's direct message is Invalid message(s)", async (t) => {
      const secret = await send(api, { type: 'direct', to: [bob.id], content: 'just us' });
      const res = await react(api.as(alice), secret, { emoji_name: 'octopus' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD('Invalid message(s)'));
    });
    t.test('emoji_name is required when adding', async (t) => {
      const res = await react(api, general, {});
      t.equal(res.status, 400);
      t.strictSame(res.body, {
        result: 'error',
        msg: "Missing 'emoji_name' argument",
        code: 'REQUEST_VARIABLE_MISSING',
        var_name: 'emoji_name',
      });
    });
    t.test('an unknown emoji name says it does not exist', async (t) => {
      const res = await react(api, general, { emoji_name: 'no_such_emoji' });
      t.equal(res.status, 400);
      t.strictSame(res.body, BAD("Emoji 'no_such_emoji' does not exist"));
    });
    t.test('a Unicode code that is not an emoji is Invalid emoji code.', async (t) => {
      const res = await react(api, general, { emoji_name: 'octopus', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' });
      t.strictSame(res.body, BAD('Invalid emoji code.'));
    });
    t.test('a code that does not match the name is Invalid emoji name.', async (t) => {
      const res = await react(api, general, { emoji_name: 'octopus', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
      t.strictSame(res.body, BAD('Invalid emoji name.'));
    });
    t.test('an unknown reaction type is Invalid emoji type.', async (t) => {
      const res = await react(api, general, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'sticker' });
      t.strictSame(res.body, BAD('Invalid emoji type.'));
    });
    t.test('custom emoji errors: unknown ID, wrong name, deactivated', async (t) => {
      const unknown = await react(api, general, { emoji_name: 'party_parrot', emoji_code: '9999', reaction_type: 'realm_emoji' });
      t.strictSame(unknown.body, BAD('Invalid custom emoji.'));
      const wrongName = await react(api, general, { emoji_name: 'parrot', emoji_code: partyId, reaction_type: 'realm_emoji' });
      t.strictSame(wrongName.body, BAD('Invalid custom emoji name.'));
      const retired = await react(api, general, { emoji_name: 'retired', emoji_code: retiredId, reaction_type: 'realm_emoji' });
      t.strictSame(retired.body, BAD('This custom emoji has been deactivated.'));
      const byName = await react(api, general, { emoji_name: 'retired' });
      t.strictSame(byName.body, BAD("Emoji 'retired' does not exist"), 'a deactivated custom emoji is not found by name');
    });
    t.test('the built-in image emoji only has its own code and name', async (t) => {
      const badCode = await react(api, general, { emoji_name: 'teamchat', emoji_code: 'other', reaction_type: 'service_extra_emoji' });
      t.strictSame(badCode.body, BAD('Invalid emoji code.'));
      const badName = await react(api, general, { emoji_name: 'other', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' });
      t.strictSame(badName.body, BAD('Invalid emoji name.'));
    });
    t.test('reacting twice with the same emoji is Reaction already exists.', async (t) => {
      const id = await send(api, { type: 'stream', to: 'general', topic: 'dup', content: 'twice' });
      t.equal((await react(api, id, { emoji_name: 'octopus' })).status, 200);
      const again = await react(api, id, { emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji' });
      t.equal(again.status, 400);
      t.strictSame(again.body, BAD('Reaction already exists.'));
    });
    t.test('removing needs a name or a code', async (t) => {
      const res = await unreact(api, general, {});
      t.strictSame(res.body, BAD('At least one of the following arguments must be present: emoji_name, emoji_code'));
    });
    t.test("removing a reaction the user did not make is Reaction doesn't exist.", async (t) => {
      const id = await send(api, { type: 'stream', to: 'general', topic: 'missing', content: 'x' });
      t.strictSame((await unreact(api, id, { emoji_name: 'octopus' })).body, BAD("Reaction doesn't exist."));
      await react(api.as(alice), id, { emoji_name: 'octopus' });
      const notMine = await unreact(api, id, { emoji_code: '1f419', reaction_type: 'unicode_emoji' });
      t.equal(notMine.status, 400);
      t.strictSame(notMine.body, BAD("Reaction doesn't exist."), "another user's vote is not removed");
      t.equal((await reactionsOf(api, id)).length, 1);
      t.strictSame((await unreact(api, id, { emoji_name: 'no_such_emoji' })).body, BAD("Emoji 'no_such_emoji' does not exist"));
    });
  });

  t.test('a Unicode reaction by name shows on the message with user_id and the user object', async (t) => {
    const id = await send(api, { type: 'stream', to: 'general', topic: 'shown', content: 'look' });
    const res = await react(api.as(alice), id, { emoji_name: 'octopus' });
    t.equal(res.status, 200);
    t.strictSame(res.body, { result: 'success', msg: '' });
    t.strictSame(await reactionsOf(api, id), [
      {
        emoji_name: 'octopus',
        emoji_code: '1f419',
        reaction_type: 'unicode_emoji',
        user_id: alice.id,
        user: { id: alice.id, email: alice.email, full_name: 'Alice 1', is_mirror_dummy: false },
      },
    ]);
  });

  t.test("the public API's names and aliases resolve to their codes", async (t) => {
    const id = await send(api, { type: 'stream', to: 'general', topic: 'names', content: 'names' });
    // Codes checked below, in the stored reactions.
    for (const name of ['+1', 'working_on_it', 'slight_smile', 'smile', 'tada']) {
      const client = name === 'smile' ? api.as(bob) : api;
      const res = await react(client, id, { emoji_name: name });
      t.equal(res.status, 200, `${name}: ${res.text}`);
    }
    // thumbs_up is an alias of +1: the same code, so it is the same vote.
    const alias = await react(api.as(alice), id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' });
    t.equal(alias.status, 200);
    const reactions = await reactionsOf(api, id);
    t.strictSame(
      reactions.map((r) => [r['emoji_name'], r['emoji_code'], r['user_id']]),
      [
        ['+1', '1f44d', 1],
        ['working_on_it', '1f6e0', 1],
        ['slight_smile', '1f642', 1],
        ['slight_smile', '1f642', bob.id],
        ['tada', '1f389', 1],
        ['+1', '1f44d', alice.id],
      ],
      "a vote for an existing reaction takes that reaction's name",
    );
  });

  t.test('custom emoji and the built-in image emoji react under their own types', async (t) => {
    const id = await send(api, { type: 'stream', to: 'general', topic: 'types', content: 'types' });
    t.equal((await react(api, id, { emoji_name: 'party_parrot' })).status, 200);
    t.equal((await react(api, id, { emoji_name: 'teamchat' })).status, 200);
    const explicit = await react(api.as(alice), id, { emoji_name: 'party_parrot', emoji_code: partyId, reaction_type: 'realm_emoji' });
    t.equal(explicit.status, 200);
    t.strictSame(
      (await reactionsOf(api, id)).map((r) => [r['emoji_name'], r['emoji_code'], r['reaction_type'], r['user_id']]),
      [
        ['party_parrot', partyId, 'realm_emoji', 1],
        ['teamchat', 'teamchat', 'service_extra_emoji', 1],
        ['party_parrot', partyId, 'realm_emoji', alice.id],
      ],
    );
    // Removal by name infers the type for a custom emoji (SPEC §Versioning, feature level 2).
    t.equal((await unreact(api, id, { emoji_name: 'party_parrot' })).status, 200);
    t.equal((await unreact(api, id, { emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' })).status, 200);
    t.strictSame(
      (await reactionsOf(api, id)).map((r) => r['user_id']),
      [alice.id],
    );
  });

  t.test("removing by code and type removes only the caller's own vote", async (t) => {
    const id = await send(api, { type: 'stream', to: 'general', topic: 'votes', content: 'vote' });
    await react(api, id, { emoji_name: 'octopus' });
    await react(api.as(alice), id, { emoji_name: 'octopus' });
    const res = await unreact(api.as(alice), id, { emoji_code: '1f419', reaction_type: 'unicode_emoji' });
    t.equal(res.status, 200);
    t.strictSame(
      (await reactionsOf(api, id)).map((r) => r['user_id']),
      [1],
    );
    const byName = await unreact(api, id, { emoji_name: 'octopus' });
    t.equal(byName.status, 200);
    t.strictSame(await reactionsOf(api, id), []);
  });

  t.test('reacting to public stream history makes the message historical for the user', async (t) => {
    await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'reaction-history' }] });
    const id = await send(api, { type: 'stream', to: 'reaction-history', topic: 't', content: 'old' });
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], ['read', 'historical']);
    t.equal((await react(api.as(bob), id, { emoji_name: 'octopus' })).status, 200);
    const db2 = new Database(path.join(server.dataDir, 'realms', 'default.sqlite3'), { readonly: true });
    const row = db2.prepare(`SELECT flags FROM ${ALL_USER_MESSAGES} WHERE user_id = ? AND message_id = ?`).get(bob.id, id) as
      { flags: number } | undefined;
    db2.close();
    t.strictSame(row, { flags: 1 | 64 }, 'a stored row with read and historical');
    t.strictSame((await fetchMessage(api.as(bob), id))['flags'], ['read', 'historical']);
  });
});
