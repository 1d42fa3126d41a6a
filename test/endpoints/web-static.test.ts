import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import t from 'tap';
import { rawRequest, type RawResponse } from '../helpers/files';
import { REPO_ROOT, startServer } from '../helpers/server';
import { hasFields } from '../helpers/exact';

// `npm run build` writes the web client here before the tests run.
const WEB_BUILD = path.join(REPO_ROOT, 'build', 'web');
const FIRST_LOAD_BUDGET_BYTES = 150 * 1024;
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface Manifest {
  files: Record<string, string>;
  pages: Record<string, string[]>;
}

/** Sends `request` as it is and returns every byte the server wrote until it closed. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

t.test('the web client is served from the build', async (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB_BUILD, 'manifest.json'), 'utf8')) as Manifest;
  const appScript = manifest.files['app.js'] ?? '';
  const server = await startServer();
  t.teardown(() => server.stop());
  const get = (urlPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> =>
    rawRequest(server.baseUrl, urlPath, { headers, method });
  const signedIn = { Cookie: 'sessionid=any-value' };

  t.test('a hashed script is served with a year of immutable caching', async (t) => {
    t.match(appScript, /^\/static\/app-[A-Z0-9]+\.js$/);
    const res = await get(appScript);
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.equal(res.headers['x-content-type-options'], 'nosniff');
    t.equal(res.headers['vary'], 'Accept-Encoding');
    t.equal(res.headers['content-encoding'], undefined, 'no Accept-Encoding: the bytes as they are');
    t.strictSame(res.body, fs.readFileSync(path.join(WEB_BUILD, appScript.slice(1))));
  });

  t.test('the encoding follows Accept-Encoding: brotli first, then gzip, and both decode to the same bytes', async (t) => {
    const identity = (await get(appScript)).body;
    const brotli = await get(appScript, { 'Accept-Encoding': 'gzip, deflate, br' });
    t.equal(brotli.headers['content-encoding'], 'br');
    t.strictSame(zlib.brotliDecompressSync(brotli.body), identity);
    const gzip = await get(appScript, { 'Accept-Encoding': 'gzip, deflate' });
    t.equal(gzip.headers['content-encoding'], 'gzip');
    t.strictSame(zlib.gunzipSync(gzip.body), identity);
    const refused = await get(appScript, { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    t.equal(refused.headers['content-encoding'], undefined, 'q=0 refuses an encoding');
    t.strictSame(refused.body, identity);
    t.not(brotli.headers['etag'], gzip.headers['etag'], 'each encoding has its own strong tag');
  });

  t.test('a matching ETag gets 304 without a body', async (t) => {
    const first = await get(appScript, { 'Accept-Encoding': 'br' });
    const etag = String(first.headers['etag']);
    t.match(etag, /^"[^"]+"$/, 'a strong tag');
    const again = await get(appScript, { 'Accept-Encoding': 'br', 'If-None-Match': etag });
    t.equal(again.status, 304);
    t.equal(again.body.length, 0);
    const changed = await get(appScript, { 'Accept-Encoding': 'br', 'If-None-Match': '"something-else"' });
    t.equal(changed.status, 200);
  });

  t.test('HEAD answers the headers and length of GET without the body', async (t) => {
    const full = await get(appScript, { 'Accept-Encoding': 'gzip' });
    const head = await get(appScript, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    t.equal(head.status, 200);
    t.equal(head.headers['content-length'], String(full.body.length));
    t.equal(head.headers['etag'], full.headers['etag']);
    t.equal(head.headers['content-encoding'], 'gzip');
    // An HTTP client drops whatever follows a HEAD answer's headers: read the socket itself.
    for (const [urlPath, status] of [
      [appScript, 200],
      ['/', 302],
      ['/login', 200],
      ['/static/nothing.js', 404],
    ] as const) {
      const wire = await rawExchange(
        server.port,
        `HEAD ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
      );
      t.match(wire, new RegExp(`^HTTP/1.1 ${status} `), `HEAD ${urlPath} is ${status}`);
      t.ok(wire.endsWith('\r\n\r\n'), `HEAD ${urlPath} ends with its headers`);
    }
  });

  t.test('an unknown static file is 404', async (t) => {
    for (const urlPath of ['/static/app-NOSUCHFILE.js', '/static/', '/static/../manifest.json', '/static/assets/nothing.woff2']) {
      const res = await get(urlPath);
      t.equal(res.status, 404, urlPath);
    }
  });

  t.test('/ without a session cookie redirects to the sign-in page', async (t) => {
    const res = await get('/');
    t.equal(res.status, 302);
    t.equal(res.headers['location'], '/login');
    const other = await get('/', { Cookie: 'csrftoken=abc; theme=dark' });
    t.equal(other.status, 302, 'other cookies are not a session');
  });

  t.test('/ with a session cookie is the app page, revalidated on each load, under the strict CSP', async (t) => {
    for (const urlPath of ['/', '/index.html']) {
      const res = await get(urlPath, signedIn);
      t.equal(res.status, 200, urlPath);
      t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      t.equal(res.headers['cache-control'], 'no-cache');
      t.equal(res.headers['content-security-policy'], CSP);
      t.equal(res.headers['x-content-type-options'], 'nosniff');
      t.equal(res.headers['referrer-policy'], 'same-origin');
      const html = res.body.toString('utf8');
      t.match(html, /^<!doctype html>/i);
      t.ok(html.includes(`<script type="module" src="${appScript}"></script>`), 'the script tag points at the hashed bundle');
      t.match(html, /<div id="app"><\/div>/);
    }
  });

  t.test('/login is the sign-in page under the strict CSP', async (t) => {
    const res = await get('/login');
    t.equal(res.status, 200);
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    t.equal(res.headers['content-security-policy'], CSP);
    t.equal(res.headers['referrer-policy'], 'same-origin');
    t.ok(res.body.toString('utf8').includes(manifest.files['login.js'] ?? 'login.js missing from the manifest'));
  });

  t.test("pages for a host with no organization get the API's 404", async (t) => {
    for (const urlPath of ['/', '/login']) {
      const res = await get(urlPath, { Host: 'nowhere.example.org', ...signedIn });
      t.equal(res.status, 404, urlPath);
      hasFields(t, res.json(), { result: 'error', code: 'NONEXISTENT_SUBDOMAIN' });
    }
  });

  t.test('every file a page refers to is served', async (t) => {
    for (const [page, files] of Object.entries(manifest.pages)) {
      for (const file of files) t.equal((await get(file)).status, 200, `${page}: ${file}`);
    }
  });

  t.test('the first load of the app page fits in 150 KB of brotli', async (t) => {
    const files = manifest.pages['index'] ?? [];
    t.ok(
      files.some((file) => file.endsWith('.js')),
      'the page loads a script',
    );
    let total = (await get('/', { ...signedIn, 'Accept-Encoding': 'br' })).body.length;
    for (const file of files) {
      const res = await get(file, { 'Accept-Encoding': 'br' });
      t.equal(res.headers['content-encoding'], 'br', file);
      total += res.body.length;
    }
    t.ok(total <= FIRST_LOAD_BUDGET_BYTES, `first load is ${total} bytes compressed (budget ${FIRST_LOAD_BUDGET_BYTES})`);
  });
});

t.test('no built page has an inline script or event-handler attribute', async (t) => {
  const pages = fs.readdirSync(WEB_BUILD).filter((name) => name.endsWith('.html'));
  t.ok(pages.includes('index.html') && pages.includes('login.html'), 'both pages are built');
  for (const page of pages) {
    const html = fs.readFileSync(path.join(WEB_BUILD, page), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    t.ok(scripts.length > 0, `${page} loads a script`);
    for (const [, attributes = '', body = ''] of scripts) {
      t.match(attributes, /\ssrc="\/static\/[^"]+\.js"/, `${page}: every script has a src under /static/`);
      t.equal(body.trim(), '', `${page}: no inline code`);
    }
    t.notMatch(html, /<[^>]+\son[a-z]+\s*=/i, `${page}: no inline event handlers`);
  }
});

t.test("the build leaves only this build's files, each compressible one beside its gzip and brotli", async (t) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(WEB_BUILD, 'manifest.json'), 'utf8')) as Manifest;
  const staticDir = path.join(WEB_BUILD, 'static');
  const entryFiles = fs.readdirSync(staticDir).filter((name) => /\.(js|css)$/.test(name));
  t.strictSame(
    entryFiles.map((name) => `/static/${name}`).sort(),
    Object.values(manifest.files).sort(),
    'no stale entry bundle from an earlier build',
  );
  const listed = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? listed(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  const compressible = listed(WEB_BUILD).filter((file) => /\.(html|js|css|json|svg|ttf)$/.test(file));
  t.ok(compressible.length >= 4, 'pages, scripts and styles are there');
  for (const file of compressible) {
    const identity = fs.readFileSync(file);
    const name = path.relative(WEB_BUILD, file);
    t.strictSame(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)), identity, `${name}.gz`);
    t.strictSame(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)), identity, `${name}.br`);
  }
  const woff2 = listed(WEB_BUILD).filter((file) => file.endsWith('.woff2'));
  t.ok(woff2.length > 0, "KaTeX's fonts are built");
  t.notOk(
    woff2.some((file) => fs.existsSync(`${file}.br`)),
    'woff2 is compressed already and gets no copies',
  );
});
