import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { EventReader } from '../helpers/events';
import { createMember, fetchMessage, updateRealm } from '../helpers/fixtures';
import { multipartBody, postFiles, rawRequest, TINY_PNG, type RawResponse } from '../helpers/files';
import { ApiClient, basicAuth, badRequest } from '../helpers/http';
import { manage } from '../helpers/manage';
import { responseViolations } from '../helpers/openapi';
import { sendToStream } from '../helpers/realm-file';
import { startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

const NOT_FOUND = { result: 'error', msg: 'File not found', code: 'BAD_REQUEST' };

t.test('uploads', async (t) => {
  // A 4 MiB upload limit keeps the test's files small; the front end's body limit follows it (5 MiB).
  const server = await startServer({ env: { MAX_FILE_UPLOAD_SIZE_MIB: '4', TEMPORARY_URL_MS: '60000' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const alice = await createMember(api, 'Alice');
  const bob = await createMember(api, 'Bob');
  const carol = await createMember(api, 'Carol');

  const upload = async (
    who: typeof alice | typeof server.owner,
    data: Buffer,
    filename = 'data.bin',
    contentType = 'application/octet-stream',
  ): Promise<string> => {
    const res = await postFiles(server.baseUrl, '/user_uploads', who, [{ field: 'file', filename, contentType, data }]);
    if (res.status !== 200) throw new Error(`upload failed: ${res.body.toString()}`);
    return String(res.json()['uri']);
  };
  const fetchFile = (uri: string, who: typeof alice | null, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(server.baseUrl, uri, { auth: who, headers });

  t.test('POST /user_uploads errors', async (t) => {
    t.test('no file is You must specify a file to upload', async (t) => {
      const res = await api.post('/user_uploads', { note: 'no file here' }, 'multipart');
      t.equal(res.status, 400);
      t.strictSame(res.body, badRequest('You must specify a file to upload'));
    });
    t.test('two files are refused', async (t) => {
      const part = { contentType: 'text/plain', data: Buffer.from('x') };
      const res = await postFiles(server.baseUrl, '/user_uploads', alice, [
        { field: 'a', filename: 'a.txt', ...part },
        { field: 'b', filename: 'b.txt', ...part },
      ]);
      t.equal(res.status, 400);
      t.strictSame(res.json(), badRequest('You may only upload one file at a time'));
    });
    t.test('a file over the configured limit names the limit, which register announces', async (t) => {
      const registered = await api.post('/register', { fetch_event_types: ['realm'] });
      t.equal(registered.body['max_file_upload_size_mib'], 4);
      t.equal(registered.body['max_avatar_file_size_mib'], 5);
      const res = await postFiles(server.baseUrl, '/user_uploads', alice, [
        { field: 'file', filename: 'big.bin', contentType: 'application/octet-stream', data: Buffer.alloc(4 * 1024 * 1024 + 10) },
      ]);
      t.equal(res.status, 400);
      t.strictSame(res.json(), badRequest('Uploaded file is larger than the allowed limit of 4 MiB'));
    });
    t.test('a body beyond the front end limit is a 413 JSON error, answered once the body is read', async (t) => {
      // The front end reads and throws away the body before answering (src/http/refused-body.ts).
      const head = [
        'POST /api/v1/user_uploads HTTP/1.1',
        `Host: localhost:${server.port}`,
        `Authorization: Basic ${Buffer.from(`${alice.email}:${alice.key}`).toString('base64')}`,
        'Content-Type: multipart/form-data; boundary=x',
        `Content-Length: ${6 * 1024 * 1024}`,
        '',
        '',
      ].join('\r\n');
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(server.port, '127.0.0.1', () =>
          socket.write(Buffer.concat([Buffer.from(head), Buffer.alloc(6 * 1024 * 1024)])),
        );
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
      });
      t.match(answer, /^HTTP\/1\.1 413 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
      t.strictSame(body, badRequest(`Request body too large (limit: ${5 * 1024 * 1024} bytes)`));
    });
    t.test('without credentials the answer has no code', async (t) => {
      const res = await postFiles(server.baseUrl, '/user_uploads', null, [
        { field: 'f', filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('x') },
      ]);
      t.equal(res.status, 401);
      t.strictSame(res.json(), { result: 'error', msg: 'Not logged in: API authentication or user session required' });
    });
  });

  t.test('a binary file of several MiB round-trips byte for byte, with an add event to the uploader', async (t) => {
    const events = await EventReader.register(api.as(alice), { event_types: ['attachment'] });
    const data = randomBytes(3 * 1024 * 1024 + 12345);
    const res = await postFiles(server.baseUrl, '/user_uploads', alice, [
      { field: 'filename', filename: 'my report (final).bin', contentType: 'application/octet-stream', data },
    ]);
    t.equal(res.status, 200);
    const body = res.json();
    // The reference file is 7.0's, which has `uri` only; `url` is the later name, sent beside it.
    const { url: _url, ...asOfReference } = body;
    t.strictSame(responseViolations('post', '/user_uploads', asOfReference), []);
    const uri = String(body['uri']);
    t.match(uri, /^\/user_uploads\/1\/[0-9a-f]{2}\/[A-Za-z0-9_-]{24}\/my-report-final.bin$/);
    t.equal(body['url'], uri);
    const got = await fetchFile(uri, alice);
    t.equal(got.status, 200);
    t.ok(got.body.equals(data), 'same bytes');
    const received = (await events.nextPayloads()) as { op: string; attachment: Record<string, unknown>; upload_space_used: number }[];
    t.equal(received.length, 1);
    const event = received[0];
    t.equal(event?.op, 'add');
    hasFields(t, event?.attachment, {
      name: 'my-report-final.bin',
      size: data.length,
      path_id: uri.slice('/user_uploads/'.length),
      messages: [],
    });
    t.ok((event?.upload_space_used ?? 0) >= data.length, 'upload_space_used counts the file');
  });

  t.test('a Python-style request (field named after the file) and a zulip-js-style FormData both work', async (t) => {
    const data = randomBytes(2 * 1024 * 1024);
    const python = await postFiles(server.baseUrl, '/user_uploads', alice, [
      { field: 'notes.txt', filename: 'notes.txt', contentType: 'text/plain', data },
    ]);
    t.equal(python.status, 200);
    t.ok((await fetchFile(String(python.json()['uri']), alice)).body.equals(data));
    const form = new FormData();
    form.append('file', new Blob([data], { type: 'application/octet-stream' }), 'blob.bin');
    const auth = 'Basic ' + Buffer.from(`${alice.email}:${alice.key}`).toString('base64');
    const response = await fetch(`${server.baseUrl}/api/v1/user_uploads`, { method: 'POST', body: form, headers: { Authorization: auth } });
    const json = (await response.json()) as Record<string, unknown>;
    t.equal(response.status, 200);
    t.ok((await fetchFile(String(json['uri']), alice)).body.equals(data));
  });

  t.test('a chunked request body (no Content-Length) uploads the same way', async (t) => {
    const data = randomBytes(300 * 1024);
    const { body, contentType } = multipartBody([
      { field: 'file', filename: 'chunked.bin', contentType: 'application/octet-stream', data },
    ]);
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/api/v1/user_uploads',
          headers: { 'Content-Type': contentType, Authorization: basicAuth(alice), Host: `localhost:${server.port}` },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        },
      );
      req.on('error', reject);
      // Two writes without a length: node sends Transfer-Encoding: chunked.
      req.write(body.subarray(0, 1000));
      req.end(body.subarray(1000));
    });
    t.equal(answer['result'], 'success', JSON.stringify(answer));
    t.ok((await fetchFile(String(answer['uri']), alice)).body.equals(data));
  });

  t.test('file names are sanitized as the public API does', async (t) => {
    t.match(await upload(alice, Buffer.from('x'), '../../etc/pass wd?.txt'), /\/etcpass-wd.txt$/);
    t.match(await upload(alice, Buffer.from('x'), '???'), /\/uploaded-file$/);
    t.match(await upload(alice, Buffer.from('x'), 'café ünïcode.txt'), /\/café-ünïcode.txt$/);
  });

  t.test('access: the uploader and readers of a linking message; everyone else gets 404 JSON', async (t) => {
    const secret = Buffer.from('for carol only');
    const uri = await upload(alice, secret, 'secret.txt', 'text/plain');
    const before = await fetchFile(uri, bob);
    t.equal(before.status, 404);
    t.strictSame(before.json(), NOT_FOUND);
    t.equal((await fetchFile(uri, carol)).status, 404, 'not linked yet');
    const dm = await api.as(alice).post('/messages', { type: 'direct', to: [carol.id], content: `[secret](${uri})` });
    t.equal(dm.status, 200);
    const asCarol = await fetchFile(uri, carol);
    t.equal(asCarol.status, 200);
    t.ok(asCarol.body.equals(secret));
    const asBob = await fetchFile(uri, bob);
    t.equal(asBob.status, 404, 'bob cannot see the direct message');
    t.strictSame(asBob.json(), NOT_FOUND);
    t.notOk(asBob.body.includes(secret), 'never the bytes');
    const anonymous = await fetchFile(uri, null);
    t.equal(anonymous.status, 404);
    t.strictSame(await fetchFile(uri.replace(/\/[^/]+$/, '/other.txt'), alice).then((r) => r.status), 404, 'a wrong name is not the file');
  });

  t.test('a linking message in a public stream opens the file to its readers, including later subscribers', async (t) => {
    const uri = await upload(alice, Buffer.from('public notes'), 'notes.txt', 'text/plain');
    await sendToStream(api.as(alice), 'general', 'files', `see [notes](${uri})`);
    t.equal((await fetchFile(uri, bob)).status, 200);
  });

  t.test("another realm's server path never resolves", async (t) => {
    const env = { DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
    const created = manage(
      ['create-realm', '--subdomain', 'other', '--name', 'Other', '--owner-email', 'boss@other.test', '--owner-name', 'Boss'],
      env,
    );
    t.equal(created.status, 0, created.stderr);
    const ini = Object.fromEntries(
      created.stdout
        .split('\n')
        .filter((l) => l.includes('='))
        .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
    );
    const otherOwner = { email: String(ini['email']), key: String(ini['key']) };
    const uri = await upload(alice, Buffer.from('default realm only'), 'mine.txt', 'text/plain');
    const host = `other.localhost:${server.port}`;
    const res = await rawRequest(server.baseUrl, uri, { auth: otherOwner, host });
    t.equal(res.status, 404);
    t.strictSame(res.json(), NOT_FOUND);
  });

  t.test('headers: stored type, inline only for the allow-list, nosniff and a restrictive CSP', async (t) => {
    const png = await fetchFile(await upload(alice, TINY_PNG, 'dot.png', 'image/png'), alice);
    t.equal(png.headers['content-type'], 'image/png');
    t.match(png.headers['content-disposition'], /^inline; filename\*=UTF-8''dot\.png$/);
    t.equal(png.headers['x-content-type-options'], 'nosniff');
    t.match(png.headers['content-security-policy'], /default-src 'none'.*sandbox/);
    const html = await fetchFile(await upload(alice, Buffer.from('<script>alert(1)</script>'), 'page.html', 'text/html'), alice);
    t.equal(html.headers['content-type'], 'text/html');
    t.match(html.headers['content-disposition'], /^attachment; filename\*=UTF-8''page\.html$/);
    t.equal(html.headers['x-content-type-options'], 'nosniff');
  });

  t.test("HEAD answers a file's GET headers without its body; refusals too", async (t) => {
    const uri = await upload(alice, TINY_PNG, 'dot.png', 'image/png');
    const get = await fetchFile(uri, alice);
    const head = await rawRequest(server.baseUrl, uri, { method: 'HEAD', auth: alice });
    t.equal(head.status, 200);
    t.strictSame(head.body, Buffer.alloc(0), 'no body');
    for (const name of ['content-type', 'content-length', 'content-disposition', 'x-content-type-options', 'content-security-policy']) {
      t.equal(head.headers[name], get.headers[name], name);
    }
    t.equal(head.headers['content-length'], String(TINY_PNG.length));
    const refused = await rawRequest(server.baseUrl, uri, { method: 'HEAD', auth: bob });
    const refusedGet = await fetchFile(uri, bob);
    t.strictSame([refused.status, refused.headers['content-length'], refused.body.length], [404, refusedGet.headers['content-length'], 0]);
  });

  t.test('range requests: 206 with Content-Range, suffix ranges, 416 past the end', async (t) => {
    const data = randomBytes(1024 * 1024 + 500);
    const uri = await upload(alice, data, 'ranged.bin');
    const middle = await fetchFile(uri, alice, { Range: 'bytes=1048570-1048589' });
    t.equal(middle.status, 206);
    t.equal(middle.headers['content-range'], `bytes 1048570-1048589/${data.length}`);
    t.ok(middle.body.equals(data.subarray(1048570, 1048590)), 'bytes across a chunk boundary');
    const suffix = await fetchFile(uri, alice, { Range: 'bytes=-100' });
    t.equal(suffix.status, 206);
    t.ok(suffix.body.equals(data.subarray(data.length - 100)));
    const open = await fetchFile(uri, alice, { Range: 'bytes=1048576-' });
    t.ok(open.body.equals(data.subarray(1048576)));
    const past = await fetchFile(uri, alice, { Range: `bytes=${data.length}-` });
    t.equal(past.status, 416);
    t.equal(past.headers['content-range'], `bytes */${data.length}`);
    t.strictSame(past.json(), { result: 'error', msg: 'Requested range not satisfiable', code: 'BAD_REQUEST' });
    t.equal((await fetchFile(uri, bob, { Range: 'bytes=0-10' })).status, 404, 'ranges do not bypass access');
  });

  t.test('GET /api/v1/user_uploads/... answers a temporary URL that works without credentials', async (t) => {
    const data = Buffer.from('temporary');
    const uri = await upload(alice, data, 'temp.txt', 'text/plain');
    const denied = await api.as(bob).get(uri);
    t.equal(denied.status, 404);
    t.strictSame(denied.body, NOT_FOUND);
    const res = await api.as(alice).get(uri);
    t.equal(res.status, 200);
    t.strictSame(responseViolations('get', '/user_uploads/{realm_id_str}/{filename}', res.body), []);
    const url = String(res.body['url']);
    t.match(url, /^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
    const got = await fetchFile(url, null);
    t.equal(got.status, 200);
    t.ok(got.body.equals(data));
    const forged = await fetchFile(url.replace(/temporary\/[^.]+/, 'temporary/WyIxIiw5OTk5OTk5OTk5OTk5XQ'), null);
    t.equal(forged.status, 404);
  });

  t.test("the renderer's image preview of an upload leads to the file", async (t) => {
    const uri = await upload(alice, TINY_PNG, 'preview.png', 'image/png');
    const messageId = await sendToStream(api.as(alice), 'general', 'previews', `[preview.png](${uri})`);
    const message = await fetchMessage(api.as(alice), messageId);
    const src = /<img[^>]* src="([^"]+)"/.exec(String(message['content']))?.[1]?.replace(/&amp;/g, '&') ?? '';
    t.match(src, /^\/thumbnail\?url=user_uploads/);
    const res = await rawRequest(server.baseUrl, src, { auth: bob });
    t.equal(res.status, 302);
    t.equal(res.headers['location'], uri);
    const image = await fetchFile(String(res.headers['location']), bob);
    t.equal(image.status, 200);
    t.ok(image.body.equals(TINY_PNG));
    const external = await rawRequest(server.baseUrl, `/thumbnail?url=${encodeURIComponent('https://example.com/x.png')}`);
    t.equal(external.status, 404);
  });

  t.test('spectators fetch files linked from web-public streams when the realm admits them', async (t) => {
    await updateRealm(api, { enable_spectator_access: true });
    const created = await api.post('/users/me/subscriptions', { subscriptions: [{ name: 'open house' }], is_web_public: true });
    t.equal(created.status, 200, created.text);
    const uri = await upload(server.owner, Buffer.from('for the world'), 'world.txt', 'text/plain');
    await sendToStream(api, 'open house', 'hello', `[world](${uri})`);
    await updateRealm(api, { enable_spectator_access: false });
    t.equal((await fetchFile(uri, null)).status, 404, 'no spectator access: not found');
    await updateRealm(api, { enable_spectator_access: true });
    const res = await fetchFile(uri, null);
    t.equal(res.status, 200);
    t.equal(res.body.toString(), 'for the world');
    await updateRealm(api, { enable_spectator_access: false });
  });

  t.test('a copy of the realm file taken while uploads happen is consistent and holds the files', async (t) => {
    const done = await Promise.all([0, 1, 2].map((i) => upload(alice, randomBytes(512 * 1024), `copy-done-${i}.bin`)));
    const during = [3, 4, 5, 6].map((i) => upload(alice, randomBytes(512 * 1024), `copy-during-${i}.bin`));
    const copyPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'realm-copy-')), 'copy.sqlite3');
    const source = new Database(path.join(server.dataDir, 'realms', 'default.sqlite3'), { readonly: true });
    await source.backup(copyPath);
    source.close();
    await Promise.all(during);
    const copy = new Database(copyPath, { readonly: true });
    t.teardown(() => copy.close());
    t.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
    const rows = copy.prepare("SELECT id, path_id, size FROM attachments WHERE name LIKE 'copy-%'").all() as {
      id: number;
      path_id: string;
      size: number;
    }[];
    t.ok(rows.length >= 3, 'uploads finished before the copy are in it');
    for (const uri of done)
      t.ok(
        rows.some((row) => uri.endsWith(row.path_id)),
        `${uri} is in the copy`,
      );
    for (const row of rows) {
      // Every upload in the copy is whole: the bytes of the server's file, none missing.
      const stored = copy.prepare('SELECT data FROM attachment_chunks WHERE attachment_id = ? ORDER BY seq').all(row.id) as {
        data: Buffer;
      }[];
      const bytes = Buffer.concat(stored.map((c) => c.data));
      const served = await fetchFile(`/user_uploads/${row.path_id}`, alice);
      t.ok(served.body.equals(bytes) && bytes.length === row.size, `${row.path_id} whole in the copy`);
    }
  });
});

t.test("the realm's upload quota (REALM_UPLOAD_QUOTA_MIB): register announces it, an upload past it is refused", async (t) => {
  const server = await startServer({ env: { REALM_UPLOAD_QUOTA_MIB: '1' } });
  t.teardown(() => server.stop());
  const api = new ApiClient(server.baseUrl, server.owner);
  const state = await api.post('/register', { fetch_event_types: ['realm'] });
  t.equal(state.body['realm_upload_quota_mib'], 1);
  const post = (size: number) =>
    postFiles(server.baseUrl, '/user_uploads', server.owner, [
      { field: 'file', filename: 'part.bin', contentType: 'application/octet-stream', data: randomBytes(size) },
    ]);
  const first = await post(700 * 1024);
  t.equal(first.status, 200, 'within the quota');
  const second = await post(400 * 1024);
  t.equal(second.status, 400);
  t.strictSame(second.json(), {
    result: 'error',
    msg: "Upload would exceed your organization's upload quota.",
    code: 'REALM_UPLOAD_QUOTA',
  });
  const attachments = (await api.get('/attachments')).body;
  t.equal(attachments['upload_space_used'], 700 * 1024, 'nothing of the refused upload was kept');
  t.equal((await post(300 * 1024)).status, 200, '1000 KiB of the 1024 allowed');
  const id = ((await api.get('/attachments')).body['attachments'] as { id: number }[])[0]?.id;
  t.equal((await api.call('DELETE', `/attachments/${String(id)}`)).status, 200);
  t.equal((await post(400 * 1024)).status, 200, 'deleting a file frees its space');
});

t.test('without REALM_UPLOAD_QUOTA_MIB there is no quota: register says null', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const state = await new ApiClient(server.baseUrl, server.owner).post('/register', { fetch_event_types: ['realm'] });
  t.strictSame(state.body['realm_upload_quota_mib'], null);
});
