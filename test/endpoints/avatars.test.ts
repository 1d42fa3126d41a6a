import { createHash } from 'node:crypto';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, updateRealm } from '../helpers/fixtures';
import { decodedImage, pngClaimingSize, pngUpload, postFiles, rawRequest, solidPng, TINY_PNG } from '../helpers/files';
import { ApiClient, badRequest } from '../helpers/http';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

t.test('avatars', async (t) => {
  const server = await startServer({ env: { MAX_IMAGE_UPLOAD_SIZE_MIB: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');

  t.test('POST /users/me/avatar errors', async (t) => {
    t.test('no file, or two', async (t) => {
      const none = await api.as(alice).post('/users/me/avatar', {}, 'multipart');
      t.strictSame(none.body, badRequest('You must upload exactly one avatar.'));
      const two = await postFiles(server.baseUrl, '/users/me/avatar', alice, [...pngUpload('a'), ...pngUpload('b')]);
      t.strictSame(two.json(), badRequest('You must upload exactly one avatar.'));
    });
    t.test('bytes that are not an image are BAD_IMAGE', async (t) => {
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [
        { field: 'f', filename: 'x.png', contentType: 'image/png', data: Buffer.from('not a png') },
      ]);
      t.equal(res.status, 400);
      t.strictSame(res.json(), { result: 'error', msg: 'Could not decode image; did you upload an image file?', code: 'BAD_IMAGE' });
    });
    t.test('a PNG signature over bytes that do not decode is BAD_IMAGE', async (t) => {
      const corrupt = Buffer.concat([TINY_PNG.subarray(0, 8), Buffer.from('not the rest of a png')]);
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [
        { field: 'f', filename: 'x.png', contentType: 'image/png', data: corrupt },
      ]);
      t.equal(res.status, 400);
      t.strictSame(res.json(), { result: 'error', msg: 'Could not decode image; did you upload an image file?', code: 'BAD_IMAGE' });
    });
    t.test('an image of too many pixels is refused from its header', async (t) => {
      const bomb = await pngClaimingSize(20_000, 20_000);
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [
        { field: 'f', filename: 'bomb.png', contentType: 'image/png', data: bomb },
      ]);
      t.equal(res.status, 400);
      t.strictSame(res.json(), { result: 'error', msg: 'Image size exceeds limit.', code: 'BAD_IMAGE' });
      t.equal((await api.as(alice).get('/users/me')).body['avatar_version'], 1, 'nothing stored');
    });
    t.test('an image over the image limit names it', async (t) => {
      const big = Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024)]);
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, [
        { field: 'f', filename: 'big.png', contentType: 'image/png', data: big },
      ]);
      t.strictSame(res.json(), badRequest('Uploaded file is larger than the allowed limit of 1 MiB'));
    });
    t.test('avatar_changes_disabled stops members', async (t) => {
      await updateRealm(api, { avatar_changes_disabled: true });
      const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, pngUpload());
      await updateRealm(api, { avatar_changes_disabled: false });
      t.strictSame(res.json(), badRequest('Avatar changes are disabled in this organization.'));
    });
  });

  t.test('an uploaded avatar: realm_user event, GET /avatar redirects to it, the image round-trips; deleting goes back', async (t) => {
    const events = await EventReader.register(api.as(bob), { event_types: ['realm_user'] });
    const before = await rawRequest(server.baseUrl, `/avatar/${alice.id}?s=50`);
    t.equal(before.status, 302);
    const digest = createHash('md5').update(alice.email.toLowerCase()).digest('hex');
    t.equal(before.headers['location'], `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1&s=50`);

    const res = await postFiles(server.baseUrl, '/users/me/avatar', alice, pngUpload());
    t.equal(res.status, 200);
    const avatarUrl = `/user_avatars/1/${alice.id}.png?version=2`;
    t.strictSame(res.json(), { result: 'success', msg: '', avatar_url: avatarUrl });
    const [event] = await events.nextPayloads();
    t.strictSame(event, {
      type: 'realm_user',
      op: 'update',
      person: {
        user_id: alice.id,
        avatar_source: 'U',
        avatar_url: avatarUrl,
        avatar_url_medium: `/user_avatars/1/${alice.id}-medium.png?version=2`,
        avatar_version: 2,
      },
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
    t.strictSame(
      await decodedImage(image.body),
      { format: 'png', width: 100, height: 100 },
      'the 1 px image scaled up to the 100 px square',
    );
    // A range of the stored image: exactly those bytes, not the whole image they are cut from.
    const range = await rawRequest(server.baseUrl, avatarUrl, { headers: { Range: 'bytes=1-3' } });
    t.equal(range.status, 206);
    t.strictSame(range.body, Buffer.from('PNG'), 'bytes 1 to 3');
    const headImage = await rawRequest(server.baseUrl, avatarUrl, { method: 'HEAD' });
    t.strictSame(
      [headImage.status, headImage.headers['content-type'], headImage.headers['content-length'], headImage.body.length],
      [200, 'image/png', String(image.body.length), 0],
      'HEAD on the image: its headers, no body',
    );
    const headRedirect = await rawRequest(server.baseUrl, `/avatar/${alice.id}?s=50`, { method: 'HEAD' });
    t.strictSame([headRedirect.status, headRedirect.headers['location'], headRedirect.body.length], [302, `${avatarUrl}&s=50`, 0]);
    const me = await api.as(alice).get('/users/me');
    t.equal(me.body['avatar_url'], avatarUrl);
    t.equal(me.body['avatar_version'], 2);

    const deleted = await api.as(alice).call('DELETE', '/users/me/avatar');
    t.equal(deleted.status, 200);
    const external = `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=3`;
    t.strictSame(deleted.body, { result: 'success', msg: '', avatar_url: external });
    const [reverted] = await events.nextPayloads();
    // Back to the external picture: a client_extavatar queue computes it itself (SPEC User.avatar_url).
    hasFields(t, reverted, { person: { user_id: alice.id, avatar_source: 'G', avatar_url: null, avatar_version: 3 } });
    t.equal((await rawRequest(server.baseUrl, avatarUrl)).status, 404);
  });

  t.test('an uploaded avatar is cut to a centred square: 100 px, and 500 px for /medium (scaled up), as PNG', async (t) => {
    const wide = await solidPng(300, 200);
    const res = await postFiles(server.baseUrl, '/users/me/avatar', bob, [
      { field: 'f', filename: 'wide.png', contentType: 'image/png', data: wide },
    ]);
    t.equal(res.status, 200);
    const avatarUrl = String(res.json()['avatar_url']);
    const small = await rawRequest(server.baseUrl, avatarUrl);
    t.strictSame([small.status, small.headers['content-type']], [200, 'image/png']);
    t.strictSame(await decodedImage(small.body), { format: 'png', width: 100, height: 100 });
    const redirect = await rawRequest(server.baseUrl, `/avatar/${bob.id}/medium`);
    const medium = await rawRequest(server.baseUrl, String(redirect.headers['location']));
    t.strictSame([medium.status, medium.headers['content-type']], [200, 'image/png']);
    t.strictSame(await decodedImage(medium.body), { format: 'png', width: 500, height: 500 });
  });

  t.test('GET /avatar for an unknown user redirects to the picture for the string as an email, version 1', async (t) => {
    const res = await rawRequest(server.baseUrl, '/avatar/Nobody@Example.com');
    const digest = createHash('md5').update('nobody@example.com').digest('hex');
    t.equal(res.status, 302);
    t.equal(res.headers['location'], `https://secure.gravatar.com/avatar/${digest}?d=identicon&version=1`);
  });
});
