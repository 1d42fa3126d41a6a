/**
 * The web client's pages and files, served by the front end from memory: build/web/ (written by
 * src/cli/build-web.ts) is read once at start, each file with its precompressed `.br` and `.gz`
 * and a strong ETag per encoding. Files under /static/ have hashed names, so they are cached
 * for a year; pages are revalidated on every load.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Logger } from '../log';
import { EMOJI_URL_PREFIX, EmojiImages } from './emoji-images';
import { jsonError, writeBinary, writeBodyless } from './write-response';

export const WEB_BUILD_DIR = resolve(__dirname, '..', '..', 'web');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

// No inline script anywhere; KaTeX's server-rendered HTML positions glyphs with style attributes.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// X-Content-Type-Options and Referrer-Policy go with every answer (write-response.ts);
// X-Frame-Options repeats frame-ancestors for browsers that predate CSP level 2.
const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
};

const ASSET_HEADERS: Record<string, string> = {
  'Cache-Control': 'public, max-age=31536000, immutable',
};

const JSON_TYPE = 'application/json';
const EMPTY = new Uint8Array();

const PAGE_PATHS: Record<string, string> = { '/': 'index.html', '/index.html': 'index.html', '/login': 'login.html' };
// The site's icon, under the names browsers ask for (an SVG serves both; pages link the .svg).
const ICON_PATHS: Record<string, string> = { '/favicon.svg': 'favicon.svg', '/favicon.ico': 'favicon.svg' };
const ICON_HEADERS: Record<string, string> = { 'Cache-Control': 'public, max-age=86400' };

// Paths that need a signed-in person; the shard checks the session itself on every /json call.
const SIGNED_IN_PATHS = new Set(['/', '/index.html']);

type Encoding = 'br' | 'gzip' | 'identity';

interface Representation {
  bytes: Buffer;
  etag: string;
}

interface StaticFile {
  contentType: string;
  variants: Partial<Record<Encoding, Representation>> & { identity: Representation };
  /** Every variant's tag: a browser holding any encoding of this content holds it current. */
  etags: ReadonlySet<string>;
}

/** What the caller needs from the request: read inside the uWS handler, before any await. */
export interface StaticRequest {
  method: string;
  url: string;
  host: string;
  /** A session cookie came with the request (its validity is the shard's to check, on /json). */
  signedIn: boolean;
  /** Whether the Host header names a realm (checked only for pages). */
  realmExists: () => boolean;
}

export class StaticSite {
  private readonly files = new Map<string, StaticFile>();
  private readonly built: boolean;
  private readonly emoji = new EmojiImages();

  constructor(log: Logger, dir = WEB_BUILD_DIR) {
    this.built = existsSync(join(dir, 'index.html'));
    if (!this.built) {
      log.warn({ dir }, 'the web client is not built: run `npm run build`');
      return;
    }
    for (const file of listFiles(dir)) {
      if (file.endsWith('.gz') || file.endsWith('.br')) continue;
      const path = relative(dir, file).split(sep).join('/');
      const identity = readFileSync(file);
      // One hash names the content; each encoding gets its own strong tag.
      const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27);
      const variants: StaticFile['variants'] = { identity: { bytes: identity, etag: `"${hash}"` } };
      if (existsSync(file + '.br')) variants.br = { bytes: readFileSync(file + '.br'), etag: `"${hash}-br"` };
      if (existsSync(file + '.gz')) variants.gzip = { bytes: readFileSync(file + '.gz'), etag: `"${hash}-gz"` };
      const etags = new Set(Object.values(variants).map((variant) => variant.etag));
      this.files.set(path, { contentType: CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', variants, etags });
    }
  }

  /** Whether this request is the site's to answer (the rest go to the API's routes). */
  handles(method: string, url: string): boolean {
    return (method === 'GET' || method === 'HEAD') && (url in PAGE_PATHS || url in ICON_PATHS || url.startsWith('/static/'));
  }

  /** Answers a request that `handles` accepted; returns the status sent. */
  serve(res: HttpResponse, req: HttpRequest, request: StaticRequest): number {
    const { method } = request;
    const icon = ICON_PATHS[request.url];
    if (icon !== undefined) {
      const file = this.files.get(icon);
      if (file === undefined) return answer(res, method, 404, JSON_TYPE, Buffer.from(jsonError('Not found')), {});
      return this.send(res, req, method, file, ICON_HEADERS);
    }
    const page = PAGE_PATHS[request.url];
    if (page === undefined && request.url.startsWith(EMOJI_URL_PREFIX)) {
      const image = this.emoji.image(request.url);
      if (image === null) return answer(res, method, 404, JSON_TYPE, Buffer.from(jsonError('Not found')), {});
      return answer(res, method, 200, 'image/png', image, ASSET_HEADERS);
    }
    if (page === undefined) {
      const file = this.files.get('static/' + request.url.slice('/static/'.length));
      if (file === undefined) return answer(res, method, 404, JSON_TYPE, Buffer.from(jsonError('Not found')), {});
      return this.send(res, req, method, file, ASSET_HEADERS);
    }
    if (!request.realmExists()) {
      // The public server's text for a host that maps to no organization (InvalidSubdomainError).
      const body = jsonError('Invalid subdomain', { code: 'NONEXISTENT_SUBDOMAIN' });
      return answer(res, method, 404, JSON_TYPE, Buffer.from(body), {});
    }
    if (SIGNED_IN_PATHS.has(request.url) && !request.signedIn) {
      return answer(res, method, 302, '', EMPTY, { Location: '/login', 'Cache-Control': 'no-cache' });
    }
    const file = this.files.get(page);
    if (!this.built || file === undefined) {
      const text = 'The web client is not built on this server: run `npm run build`, then restart it.\n';
      return answer(res, method, 503, 'text/plain; charset=utf-8', Buffer.from(text), { 'Retry-After': '60' });
    }
    return this.send(res, req, method, file, PAGE_HEADERS);
  }

  private send(res: HttpResponse, req: HttpRequest, method: string, file: StaticFile, headers: Record<string, string>): number {
    const { encoding, representation } = pickEncoding(file, req.getHeader('accept-encoding'));
    const common: Record<string, string> = { ...headers, ETag: representation.etag, Vary: 'Accept-Encoding' };
    if (encoding !== 'identity') common['Content-Encoding'] = encoding;
    if (matchesEtag(req.getHeader('if-none-match'), file)) return answer(res, method, 304, '', EMPTY, common);
    return answer(res, method, 200, file.contentType, representation.bytes, common);
  }
}

/** Writes a whole answer; a HEAD gets the same status, headers and length, without the body. */
function answer(
  res: HttpResponse,
  method: string,
  status: number,
  contentType: string,
  body: Uint8Array,
  headers: Record<string, string>,
): number {
  if (method === 'HEAD') writeBodyless(res, status, contentType, body.length, headers);
  else writeBinary(res, status, contentType, body, headers);
  return status;
}

/** Brotli when the browser takes it, else gzip, else the bytes as they are (q=0 refuses an encoding). */
function pickEncoding(file: StaticFile, acceptEncoding: string): { encoding: Encoding; representation: Representation } {
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    const refused = params.some((param) => /^q=0(\.0*)?$/.test(param));
    if (name !== '' && !refused) accepted.add(name);
  }
  const { br, gzip } = file.variants;
  if (br !== undefined && (accepted.has('br') || accepted.has('*'))) return { encoding: 'br', representation: br };
  if (gzip !== undefined && (accepted.has('gzip') || accepted.has('*'))) return { encoding: 'gzip', representation: gzip };
  return { encoding: 'identity', representation: file.variants.identity };
}

/** A tag of any encoding of the same content means the browser's copy is current. */
function matchesEtag(ifNoneMatch: string, file: StaticFile): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => file.etags.has(tag.trim().replace(/^W\//, '')));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
