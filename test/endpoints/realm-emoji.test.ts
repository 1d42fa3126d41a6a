import sharp from 'sharp';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { decodedImage, pngUpload, postFiles, rawRequest, solidPng, TINY_PNG } from '../helpers/files';
import { ApiClient, badRequest } from '../helpers/http';
import { responseViolations } from '../helpers/openapi';
import { sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('realm emoji', async (t) => {
  const server = await startServer({ env: { MAX_IMAGE_UPLOAD_SIZE_MIB: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  t.test('POST /realm/emoji/{emoji_name} errors', async (t) => {
    t.test('names: missing characters and bad endings', async (t) => {
      const bad = await postFiles(server.baseUrl, '/realm/emoji/Party!', alice, pngUpload());
      t.strictSame(
        bad.json(),
        badRequest('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'),
      );
      const ending = await postFiles(server.baseUrl, '/realm/emoji/party_', alice, pngUpload());
      t.strictSame(ending.json(), badRequest('Emoji names must end with either a letter or digit.'));
    });
    t.test('exactly one image file', async (t) => {
      const none = await api.as(alice).post('/realm/emoji/nofile', {}, 'multipart');
      t.strictSame(none.body, badRequest('You must upload exactly one file.'));
      const text = await postFiles(server.baseUrl, '/realm/emoji/textfile', alice, [
        { field: 'f', filename: 'a.png', contentType: 'image/png', data: Buffer.from('text') },
      ]);
      t.strictSame(text.json(), { result: 'error', msg: 'Could not decode image; did you upload an image file?', code: 'BAD_IMAGE' });
      const corrupt = Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.from('not the rest of a png')]);
      const undecodable = await postFiles(server.baseUrl, '/realm/emoji/corrupt', alice, [
        { field: 'f', filename: 'a.png', contentType: 'image/png', data: corrupt },
      ]);
      t.equal(undecodable.status, 400);
      t.strictSame(undecodable.json(), {
        result: 'error',
        msg: 'Could not decode image; did you upload an image file?',
        code: 'BAD_IMAGE',
      });
      const listed = await api.as(alice).get('/realm/emoji');
      const names = Object.values(listed.body['emoji'] as Record<string, { name: string }>).map((e) => e.name);
      t.strictSame(names.includes('corrupt'), false, 'no emoji row left behind');
    });
    t.test('add_custom_emoji_policy decides who may add', async (t) => {
      await updateRealm(api, { add_custom_emoji_policy: 2 });
      const res = await postFiles(server.baseUrl, '/realm/emoji/adminonly', alice, pngUpload());
      await updateRealm(api, { add_custom_emoji_policy: 1 });
      t.strictSame(res.json(), badRequest('Insufficient permission'));
    });
  });

  t.test('a realm emoji: listed, announced, served, rendered in messages and usable as a reaction', async (t) => {
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_emoji'] });
    const res = await postFiles(server.baseUrl, '/realm/emoji/party_parrot', alice, pngUpload());
    t.equal(res.status, 200);
    t.strictSame(res.json(), { result: 'success', msg: '' });
    const taken = await postFiles(server.baseUrl, '/realm/emoji/party_parrot', bob, pngUpload());
    t.strictSame(taken.json(), badRequest('A custom emoji with this name already exists.'));

    const list = await api.as(bob).get('/realm/emoji');
    t.strictSame(responseViolations('get', '/realm/emoji', list.body), []);
    const emoji = Object.values(
      list.body['emoji'] as Record<string, { id: string; name: string; source_url: string; deactivated: boolean; author_id: number }>,
    ).find((e) => e.name === 'party_parrot');
    hasFields(t, emoji, { name: 'party_parrot', deactivated: false, author_id: alice.id });
    const [event] = await events.nextPayloads();
    t.strictSame((event?.['realm_emoji'] as Record<string, unknown>)[String(emoji?.id)], emoji);

    const image = await rawRequest(server.baseUrl, String(emoji?.source_url));
    t.equal(image.status, 200);
    t.equal(image.headers['content-type'], 'image/png');
    t.strictSame(await decodedImage(image.body), { format: 'png', width: 64, height: 64 });

    const messageId = await sendToStream(api.as(bob), 'general', 'emoji', 'hello :party_parrot:');
    const message = await fetchMessage(api.as(bob), messageId);
    t.match(String(message['content']), /<img alt=":party_parrot:" class="emoji" src="[^"]*\/emoji\/images\/[^"]+" title="party parrot">/);
    const imgSrc = /src="([^"]+)"/.exec(String(message['content']))?.[1] ?? '';
    t.equal((await rawRequest(server.baseUrl, imgSrc.replace(/^https?:\/\/[^/]+/, ''))).status, 200, 'the rendered image is served');

    const reaction = await api.as(bob).post(`/messages/${messageId}/reactions`, { emoji_name: 'party_parrot' });
    t.strictSame(reaction.body, { result: 'success', msg: '' });
    const reactions = (await fetchMessage(api.as(bob), messageId))['reactions'] as Record<string, unknown>[];
    hasFields(t, reactions, [{ emoji_name: 'party_parrot', emoji_code: emoji?.id, reaction_type: 'realm_emoji' }]);
  });

  t.test('an emoji image is cut to a centred 64 px square in its own format; the original is kept beside it', async (t) => {
    const wide = await solidPng(300, 200);
    const res = await postFiles(server.baseUrl, '/realm/emoji/wide_one', alice, [
      { field: 'f', filename: 'wide.png', contentType: 'image/png', data: wide },
    ]);
    t.equal(res.status, 200);
    const list = await api.as(alice).get('/realm/emoji');
    const emoji = Object.values(list.body['emoji'] as Record<string, { name: string; source_url: string }>).find(
      (e) => e.name === 'wide_one',
    );
    const image = await rawRequest(server.baseUrl, String(emoji?.source_url));
    t.strictSame([image.status, image.headers['content-type']], [200, 'image/png']);
    t.strictSame(await decodedImage(image.body), { format: 'png', width: 64, height: 64 });
    const original = await rawRequest(server.baseUrl, `${String(emoji?.source_url)}.original`);
    t.strictSame([original.status, original.body], [200, wide]);
  });

  t.test('an animated emoji keeps its frames, each fitted into 64 px and padded to a square', async (t) => {
    const frames = await Promise.all(
      ['#0f0', '#00f'].map((background) =>
        sharp({ create: { width: 120, height: 80, channels: 4, background } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100] })
      .toBuffer();
    const res = await postFiles(server.baseUrl, '/realm/emoji/blinking', alice, [
      { field: 'f', filename: 'blink.gif', contentType: 'image/gif', data: gif },
    ]);
    t.equal(res.status, 200);
    const list = await api.as(alice).get('/realm/emoji');
    const emoji = Object.values(list.body['emoji'] as Record<string, { name: string; source_url: string }>).find(
      (e) => e.name === 'blinking',
    );
    const image = await rawRequest(server.baseUrl, String(emoji?.source_url));
    t.strictSame([image.status, image.headers['content-type']], [200, 'image/gif']);
    const { format, width, pageHeight, pages } = await sharp(image.body, { animated: true }).metadata();
    t.strictSame({ format, width, pageHeight, pages }, { format: 'gif', width: 64, pageHeight: 64, pages: 2 });
  });

  t.test("an animated emoji's still_url serves its first frame as a PNG; a still emoji has none", async (t) => {
    const frames = await Promise.all(
      [
        { r: 255, g: 0, b: 0 },
        { r: 0, g: 0, b: 255 },
      ].map((background) =>
        sharp({ create: { width: 64, height: 64, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100] })
      .toBuffer();
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_emoji'] });
    await postFiles(server.baseUrl, '/realm/emoji/flashing', alice, [
      { field: 'f', filename: 'f.gif', contentType: 'image/gif', data: gif },
    ]);
    await postFiles(server.baseUrl, '/realm/emoji/steady', alice, pngUpload());
    type Emoji = { id: string; name: string; source_url: string; still_url: string | null };
    const listed = Object.values((await api.get('/realm/emoji')).body['emoji'] as Record<string, Emoji>);
    const flashing = listed.find((e) => e.name === 'flashing');
    const steady = listed.find((e) => e.name === 'steady');
    t.strictSame(flashing?.still_url, `/user_avatars/1/emoji/images/still/${String(flashing?.id)}.png`);
    t.strictSame(steady?.still_url, null);
    const still = await rawRequest(server.baseUrl, String(flashing?.still_url));
    t.strictSame([still.status, still.headers['content-type']], [200, 'image/png']);
    const { data, info } = await sharp(still.body).raw().toBuffer({ resolveWithObject: true });
    t.strictSame(
      { pages: (await sharp(still.body).metadata()).pages, width: info.width, height: info.height },
      { pages: undefined, width: 64, height: 64 },
    );
    t.strictSame([data[0], data[1], data[2]], [255, 0, 0], 'the first frame, not the second');
    const missing = await rawRequest(server.baseUrl, `/user_avatars/1/emoji/images/still/${String(steady?.id)}.png`);
    t.equal(missing.status, 404);
    const payloads = await events.nextPayloads();
    t.strictSame(
      payloads.map((e) => [e['type'], e['op']]),
      [
        ['realm_emoji', 'update'],
        ['realm_emoji', 'update'],
      ],
    );
    const afterUpload = payloads[0];
    const inEvent = (afterUpload?.['realm_emoji'] as Record<string, Emoji>)[String(flashing?.id)];
    t.strictSame(inEvent?.still_url, flashing?.still_url, 'the realm_emoji event carries it too');
    const registered = await api.post('/register', { fetch_event_types: ['realm_emoji'] });
    t.strictSame((registered.body['realm_emoji'] as Record<string, Emoji>)[String(flashing?.id)], inEvent);
  });

  t.test('spaces in a new emoji name become underscores', async (t) => {
    const res = await postFiles(server.baseUrl, `/realm/emoji/${encodeURIComponent('sparkle cat')}`, alice, pngUpload());
    t.strictSame(res.json(), { result: 'success', msg: '' });
    const names = Object.values((await api.get('/realm/emoji')).body['emoji'] as Record<string, { name: string }>).map((e) => e.name);
    t.ok(names.includes('sparkle_cat'), names.join(', '));
  });

  t.test('DELETE /realm/emoji/{emoji_name}: the author or administrators deactivate it', async (t) => {
    await postFiles(server.baseUrl, '/realm/emoji/shortlived', alice, pngUpload());
    const unknown = await api.call('DELETE', '/realm/emoji/nosuchthing');
    t.equal(unknown.status, 400);
    t.strictSame(unknown.body, { result: 'error', msg: "Emoji 'nosuchthing' does not exist", code: 'BAD_REQUEST' });
    const notAuthor = await api.as(bob).call('DELETE', '/realm/emoji/shortlived');
    t.strictSame(notAuthor.body, badRequest('Must be an organization administrator or emoji author'));
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_emoji'] });
    const res = await api.as(alice).call('DELETE', '/realm/emoji/shortlived');
    t.strictSame(res.body, { result: 'success', msg: '' });
    const [event] = await events.nextPayloads();
    const entry = Object.values(event?.['realm_emoji'] as Record<string, { name: string; deactivated: boolean }>).find(
      (e) => e.name === 'shortlived',
    );
    t.equal(entry?.deactivated, true);
    const again = await api.call('DELETE', '/realm/emoji/shortlived');
    t.equal(again.status, 400, 'a deactivated emoji is gone for deletion');
    const reaction = await api
      .as(bob)
      .post(`/messages/${await sendToStream(api, 'general', 'x', 'y')}/reactions`, { emoji_name: 'shortlived' });
    t.strictSame(reaction.body, badRequest("Emoji 'shortlived' does not exist"));
  });
});
