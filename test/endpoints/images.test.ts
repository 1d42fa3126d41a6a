import { createHash } from 'node:crypto';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, fetchMessage } from '../helpers/fixtures';
import { postFiles, rawRequest, TINY_PNG } from '../helpers/files';
import { ApiClient } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { RealmFile, sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';

const BAD_REQUEST = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const png = (field = 'file') => [{ field, filename: 'img.png', contentType: 'image/png', data: TINY_PNG }];

t.test('avatars and realm emoji', async (t) => {
  const server = await startServer({ env: { MAX_IMAGE_UPLOAD_SIZE_MIB: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const realmFile = new RealmFile(server);
  t.teardown(() => realmFile.close());

  t.test('POST /users/me/avatar errors', async (t) => {
    t.test('no file, or two', async (t) => {
      const none = await api.as(alice).post('/users/me/avatar', {}, 'multipart');
      t.same(none.body, BAD_REQUEST('You must upload exactly one avatar.'));
      const two = await postFiles(server.baseUrl, '/users/me/avatar', alice, [...png('a'), ...png('b')]);
      t.same(two.json(), BAD_REQUEST('You must upload exactly one avatar.'));
    });
    t.test('bytes that are not an image are BAD_IMAGE', async (t) => {
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [{ field: 'f', filename: 'x.png', contentType: 'image/png', data: Buffer.from('not a png') }]);
      t.equal(res.status, 400);
      t.same(res.json(), { result: 'error', msg: 'Could not decode image; did you upload an image file?', code: 'BAD_IMAGE' });
    });
    t.test('an image over the image limit names it', async (t) => {
      const big = Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]);
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [{ field: 'f', filename: 'big.png', contentType: 'image/png', data: big }]);
      t.same(res.json(), BAD_REQUEST('Uploaded file is larger than the allowed limit of 1 MiB'));
    });
    t.test('avatar_changes_disabled stops members', async (t) => {
      realmFile.setRealmSettings({ avatar_changes_disabled: true });
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, png());
      realmFile.setRealmSettings({});
      t.same(res.json(), BAD_REQUEST('Avatar changes are disabled in this organization.'));
    });
  });

  t.test('an uploaded avatar: realm_user event, GET /avatar redirects to it, the image round-trips; deleting goes back', async (t) => {
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_user'] });
    const before = await rawRequest(server.baseUrl, `/avatar/${alice.id}?s=50`);
    t.equal(before.status, 302);
    const digest = createHash('md5').update(alice.email.toLowerCase()).digest('hex');
    t.equal(before.headers['location'], `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1&s=50`);

    const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, png());
    t.equal(res.status, 200);
    const avatarUrl = `/user_avatars/1/${alice.id}.png?version=2`;
    t.same(res.json(), { result: 'success', msg: '', avatar_url: avatarUrl });
    const [event] = await events.nextPayloads();
    t.same(event, {
      type: 'realm_user',
      op: 'update',
      person: { user_id: alice.id, avatar_source: 'U', avatar_url: avatarUrl, avatar_url_medium: `/user_avatars/1/${alice.id}-medium.png?version=2`, avatar_version: 2 },
    });
    for (const key of [String(alice.id), alice.email]) {
      const redirect = await rawRequest(server.baseUrl, `/avatar/${encodeURIComponent(key)}?s=50`);
      t.equal(redirect.status, 302);
      t.equal(redirect.headers['location'], `${avatarUrl}&s=50`, 'query string appended');
    }
    const medium = await rawRequest(server.baseUrl, `/avatar/${alice.id}/medium`);
    t.equal(medium.headers['location'], `/user_avatars/1/${alice.id}-medium.png?version=2`);
    const image = await rawRequest(server.baseUrl, avatarUrl);
    t.equal(image.status, 200);
    t.equal(image.headers['content-type'], 'image/png');
    t.ok(image.body.equals(TINY_PNG), 'same bytes');
    const me = await api.as(alice).get('/users/me');
    t.equal(me.body['avatar_url'], avatarUrl);
    t.equal(me.body['avatar_version'], 2);

    const deleted = await api.as(alice).call('DELETE', '/users/me/avatar');
    t.equal(deleted.status, 200);
    const external = `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=3`;
    t.same(deleted.body, { result: 'success', msg: '', avatar_url: external });
    const [reverted] = await events.nextPayloads();
    // Back to the external picture: a client_extavatar queue computes it itself (SPEC User.avatar_url).
    t.match(reverted, { person: { user_id: alice.id, avatar_source: 'G', avatar_url: null, avatar_version: 3 } });
    t.equal((await rawRequest(server.baseUrl, avatarUrl)).status, 404);
  });

  t.test('GET /avatar for an unknown user redirects to the picture for the string as an email, version 1', async (t) => {
    const res = await rawRequest(server.baseUrl, '/avatar/Nobody@Example.com');
    const digest = createHash('md5').update('nobody@example.com').digest('hex');
    t.equal(res.status, 302);
    t.equal(res.headers['location'], `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1`);
  });

  t.test('POST /realm/emoji/{emoji_name} errors', async (t) => {
    t.test('names: missing characters and bad endings', async (t) => {
      const bad = await postFiles(server.baseUrl, '/realm/emoji/Party!', alice, png());
      t.same(bad.json(), BAD_REQUEST('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'));
      const ending = await postFiles(server.baseUrl, '/realm/emoji/party_', alice, png());
      t.same(ending.json(), BAD_REQUEST('Emoji names must end with either a letter or digit.'));
    });
    t.test('exactly one image file', async (t) => {
      const none = await api.as(alice).post('/realm/emoji/nofile', {}, 'multipart');
      t.same(none.body, BAD_REQUEST('You must upload exactly one file.'));
      const text = await postFiles(server.baseUrl, '/realm/emoji/textfile', alice, [{ field: 'f', filename: 'a.png', contentType: 'image/png', data: Buffer.from('text') }]);
      t.same(text.json(), { result: 'error', msg: 'Invalid image format', code: 'BAD_IMAGE' });
    });
    t.test('add_custom_emoji_policy decides who may add', async (t) => {
      realmFile.setRealmSettings({ add_custom_emoji_policy: 2 });
      const res = await postFiles(server.baseUrl, '/realm/emoji/adminonly', alice, png());
      realmFile.setRealmSettings({});
      t.same(res.json(), BAD_REQUEST('Insufficient permission'));
    });
  });

  t.test('a realm emoji: listed, announced, served, rendered in messages and usable as a reaction', async (t) => {
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_emoji'] });
    const res = await postFiles(server.baseUrl, '/realm/emoji/party_parrot', alice, png());
    t.equal(res.status, 200);
    t.same(res.json(), { result: 'success', msg: '' });
    const taken = await postFiles(server.baseUrl, '/realm/emoji/party_parrot', bob, png());
    t.same(taken.json(), BAD_REQUEST('A custom emoji with this name already exists.'));

    const list = await api.as(bob).get('/realm/emoji');
    t.same(responseViolations('get', '/realm/emoji', list.body), []);
    const emoji = Object.values(list.body['emoji'] as Record<string, { id: string; name: string; source_url: string; deactivated: boolean; author_id: number }>).find(
      (e) => e.name === 'party_parrot',
    );
    t.match(emoji, { name: 'party_parrot', deactivated: false, author_id: alice.id });
    const [event] = await events.nextPayloads();
    t.same((event?.['realm_emoji'] as Record<string, unknown>)[String(emoji?.id)], emoji);

    const image = await rawRequest(server.baseUrl, String(emoji?.source_url));
    t.equal(image.status, 200);
    t.equal(image.headers['content-type'], 'image/png');
    t.ok(image.body.equals(TINY_PNG));

    const messageId = await sendToStream(api.as(bob), 'general', 'emoji', 'hello :party_parrot:');
    const message = await fetchMessage(api.as(bob), messageId);
    t.match(String(message['content']), /<img alt=":party_parrot:" class="emoji" src="[^"]*\/emoji\/images\/[^"]+" title="party parrot">/);
    const imgSrc = /src="([^"]+)"/.exec(String(message['content']))?.[1] ?? '';
    t.equal((await rawRequest(server.baseUrl, imgSrc.replace(/^https?:\/\/[^/]+/, ''))).status, 200, 'the rendered image is served');

    const reaction = await api.as(bob).post(`/messages/${messageId}/reactions`, { emoji_name: 'party_parrot' });
    t.same(reaction.body, { result: 'success', msg: '' });
    const reactions = (await fetchMessage(api.as(bob), messageId))['reactions'] as Record<string, unknown>[];
    t.match(reactions, [{ emoji_name: 'party_parrot', emoji_code: emoji?.id, reaction_type: 'realm_emoji' }]);
  });

  t.test('DELETE /realm/emoji/{emoji_name}: the author or administrators deactivate it', async (t) => {
    await postFiles(server.baseUrl, '/realm/emoji/shortlived', alice, png());
    const unknown = await api.call('DELETE', '/realm/emoji/nosuchthing');
    t.equal(unknown.status, 404);
    t.same(unknown.body, { result: 'error', msg: 'Emoji does not exist', code: 'BAD_REQUEST' });
    const notAuthor = await api.as(bob).call('DELETE', '/realm/emoji/shortlived');
    t.same(notAuthor.body, BAD_REQUEST('Must be an organization administrator or emoji author'));
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_emoji'] });
    const res = await api.as(alice).call('DELETE', '/realm/emoji/shortlived');
    t.same(res.body, { result: 'success', msg: '' });
    const [event] = await events.nextPayloads();
    const entry = Object.values(event?.['realm_emoji'] as Record<string, { name: string; deactivated: boolean }>).find((e) => e.name === 'shortlived');
    t.equal(entry?.deactivated, true);
    const again = await api.call('DELETE', '/realm/emoji/shortlived');
    t.equal(again.status, 404, 'a deactivated emoji is gone for deletion');
    const reaction = await api.as(bob).post(`/messages/${await sendToStream(api, 'general', 'x', 'y')}/reactions`, { emoji_name: 'shortlived' });
    t.same(reaction.body, BAD_REQUEST("Emoji 'shortlived' does not exist"));
  });
});
