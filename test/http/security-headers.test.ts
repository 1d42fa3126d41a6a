import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { postFiles, pngUpload, rawRequest, type RawRequest } from '../helpers/files';
import { basicAuth } from '../helpers/http';
import { parseAnswers, rawExchange, requestHead } from '../helpers/raw-http';
import { REPO_ROOT, startServer } from '../helpers/server';

const SECURITY = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };

t.test('every answer forbids sniffing and keeps the URL out of Referer; the page cannot be framed', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const appScript =
    (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'build', 'web', 'manifest.json'), 'utf8')) as { files: Record<string, string> }).files[
      'app.js'
    ] ?? '';
  const upload = await postFiles(server.baseUrl, '/user_uploads', server.owner, pngUpload());
  const uploadUrl = String(upload.json()['uri']);

  const samples: [string, string, RawRequest, number][] = [
    ['JSON success', '/api/v1/server_settings', {}, 200],
    ['JSON success, signed in', '/api/v1/users/me', { auth: server.owner }, 200],
    [
      'JSON 400',
      '/api/v1/messages',
      {
        method: 'POST',
        auth: server.owner,
        body: Buffer.from('type=stream'),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      400,
    ],
    ['JSON 401', '/api/v1/users/me', {}, 401],
    ['JSON 404, no route', '/api/v1/no/such/route', { auth: server.owner }, 404],
    ['JSON 404, outside the API', '/no-such-page', {}, 404],
    ['JSON 404, no realm', '/api/v1/server_settings', { host: 'nowhere.example' }, 404],
    ['JSON 405', '/api/v1/users/me', { method: 'PUT', auth: server.owner }, 405],
    ['health', '/health', {}, 200],
    ['the sign-in page', '/login', {}, 200],
    ['the app page, signed out', '/', {}, 302],
    ['a static file', appScript, {}, 200],
    ['a missing static file', '/static/none.js', {}, 404],
    ['an uploaded file', uploadUrl, { auth: server.owner }, 200],
  ];
  for (const [name, urlPath, options, status] of samples) {
    const res = await rawRequest(server.baseUrl, urlPath, options);
    t.strictSame(
      {
        status: res.status,
        'x-content-type-options': res.headers['x-content-type-options'],
        'referrer-policy': res.headers['referrer-policy'],
      },
      { status, ...SECURITY },
      name,
    );
  }

  const page = await rawRequest(server.baseUrl, '/login');
  t.equal(page.headers['x-frame-options'], 'DENY', 'the page: X-Frame-Options');
  t.match(String(page.headers['content-security-policy']), /(^|; )frame-ancestors 'none'(;|$)/, "the page: CSP frame-ancestors 'none'");

  // The 413 is written by the front end before any shard sees the request.
  const tooLarge = await rawExchange(server.port, [
    requestHead('POST', '/api/v1/user_uploads', server.port, {
      Authorization: basicAuth(server.owner),
      'Content-Length': String(27 * 1024 * 1024),
    }),
    Buffer.alloc(27 * 1024 * 1024),
  ]);
  const [refused] = parseAnswers(tooLarge.received);
  t.strictSame(
    {
      status: refused?.status,
      'x-content-type-options': refused?.headers['x-content-type-options'],
      'referrer-policy': refused?.headers['referrer-policy'],
    },
    { status: 413, ...SECURITY },
    'JSON 413',
  );
});
