/**
 * Tests in a real browser against the real server: Debian's chromium, or Debian's firefox-esr
 * when a file under `firefox/` has called `useBrowser('firefox')` first, each driven by
 * playwright-core (no browser download). Each test file asks `browserSkipReason()` first and
 * skips when the browser is absent, saying why (under CI it fails instead).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { _bidiFirefox } from 'playwright-core-firefox';
import { ApiClient } from '../helpers/http';
import { createMember, type Member } from '../helpers/fixtures';
import { freePort, REPO_ROOT, startServer, tempDataDir, type TestServer } from '../helpers/server';

export type BrowserName = 'chromium' | 'firefox';

const EXECUTABLES: Record<BrowserName, { path: string; install: string }> = {
  chromium: { path: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', install: 'apt-get install chromium' },
  firefox: { path: process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr', install: 'apt-get install firefox-esr' },
};

let browserName: BrowserName = 'chromium';

/** Chooses the browser for this test file; call it before the tests' module is loaded. */
export function useBrowser(name: BrowserName): void {
  browserName = name;
}

export function currentBrowser(): BrowserName {
  return browserName;
}
const SCREENSHOTS = path.join(REPO_ROOT, 'build', 'artifacts', 'screenshots');
// Long enough for a loaded machine (five people share two cores); waits end as soon as the page is ready.
export const UI_TIMEOUT_MS = 15_000;

/**
 * Why this machine cannot run the browser tests, or null when it can. Under CI a missing
 * browser is a failure, not a skip: a green CI run means every tier ran.
 */
export function browserSkipReason(): string | null {
  const executable = EXECUTABLES[browserName];
  if (fs.existsSync(executable.path)) return null;
  const reason = `${browserName} not installed: ${executable.install}`;
  if (process.env['CI']) throw new Error(`CI runs every tier, but ${reason}`);
  return reason;
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = EXECUTABLES[browserName].path;
  if (browserName === 'firefox') {
    // Firefox speaks WebDriver BiDi. playwright-core 1.55 is the last release whose BiDi client
    // works with Debian's Firefox ESR 140 (later ones call `network.addDataCollector`, which
    // ESR 140 lacks), so it is pinned under its own name. Its Browser has the same surface as
    // the one these tests are typed against.
    const firefox = await _bidiFirefox.launch({ executablePath, headless: true, env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' } });
    return firefox as unknown as Browser;
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A server on a port of its own that a restart finds again, so open pages can reconnect. */
export interface BrowserServer {
  current: TestServer;
  baseUrl: string;
  admin: ApiClient;
  /** SIGTERM (the server saves its event queues), then start again on the same port and data dir. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startBrowserServer(env: Record<string, string> = {}): Promise<BrowserServer> {
  const port = await freePort();
  const dataDir = tempDataDir();
  const first = await startServer({ port, dataDir, env });
  const handle: BrowserServer = {
    current: first,
    baseUrl: first.baseUrl,
    admin: new ApiClient(first.baseUrl, first.owner),
    async stop() {
      await handle.current.stop();
    },
    async start() {
      handle.current = await startServer({ port, dataDir, env });
    },
  };
  return handle;
}

/** A member with a password, subscribed to nothing yet. */
export function createPerson(server: BrowserServer, name: string): Promise<Member> {
  return createMember(server.admin, name);
}

/** Creates `stream` with these people subscribed. */
export async function createStream(server: BrowserServer, stream: string, people: readonly Member[]): Promise<void> {
  const res = await server.admin.post('/users/me/subscriptions', {
    subscriptions: [{ name: stream }],
    principals: people.map((person) => person.id),
  });
  if (res.status !== 200) throw new Error(`cannot create stream ${stream}: ${res.text}`);
}

/**
 * What went wrong in a page that the page itself does not show: CSP violations (Chromium logs
 * them; Firefox reports them, see `allowTestScripts`) and uncaught errors.
 */
export class PageProblems {
  readonly problems: string[] = [];

  watch(page: Page, who: string): void {
    page.on('pageerror', (error) => this.problems.push(`${who}: uncaught ${error.name}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text())) {
        this.problems.push(`${who}: ${message.text()}`);
      }
    });
  }

  /** Resolves once a problem matching `pattern` has been seen (the browser reports some late). */
  async seen(pattern: RegExp): Promise<void> {
    const deadline = Date.now() + UI_TIMEOUT_MS;
    while (!this.problems.some((problem) => pattern.test(problem))) {
      if (Date.now() > deadline) throw new Error(`no problem matching ${pattern} was seen; saw ${JSON.stringify(this.problems)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** A fresh browser context (its own cookies) with one page, watched for problems. */
export async function openPage(
  browser: Browser,
  problems: PageProblems,
  who: string,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  if (browserName === 'firefox') await allowTestScripts(context, problems, who);
  const page = await context.newPage();
  problems.watch(page, who);
  return { context, page };
}

/**
 * Over WebDriver BiDi, playwright runs a test's `evaluate` and `waitForFunction` through the
 * page's `eval`, which the pages' CSP forbids (Chromium's protocol exempts its own evaluations),
 * and Firefox logs CSP violations where BiDi does not forward them. So in Firefox the two pages'
 * CSP gets `'unsafe-eval'` and a `report-uri` pointing at `cspReports`: inline script and
 * foreign origins stay refused, and Chromium checks the unchanged policy. (A redirect's target
 * is not routed again over BiDi; only `/` without a session redirects, to `/login`.)
 */
async function allowTestScripts(context: BrowserContext, problems: PageProblems, who: string): Promise<void> {
  const reportUri = await cspReports.uriFor(problems, who);
  await context.route(
    (url) => url.pathname === '/' || url.pathname === '/login',
    async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const response = await route.fetch({ maxRedirects: 0 });
      const headers = response.headers();
      // The fetched body comes decoded; it is handed on as it is.
      delete headers['content-encoding'];
      delete headers['content-length'];
      const policy = headers['content-security-policy'];
      if (policy !== undefined) {
        headers['content-security-policy'] =
          `${policy.replace("script-src 'self'", "script-src 'self' 'unsafe-eval'")}; report-uri ${reportUri}`;
      }
      return route.fulfill({ response, headers });
    },
  );
}

/**
 * Receives Firefox's CSP violation reports (BiDi's request interception does not show their
 * bodies) and records each as a problem of the page whose policy named it.
 */
const cspReports = {
  server: null as Promise<string> | null,
  watchers: new Map<string, { problems: PageProblems; who: string }>(),

  async uriFor(problems: PageProblems, who: string): Promise<string> {
    this.server ??= new Promise((resolve) => {
      const server = http.createServer((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (body += chunk));
        req.on('end', () => {
          const watcher = this.watchers.get(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '');
          if (watcher !== undefined && !isPlaywrightsOwnStyle(body))
            watcher.problems.problems.push(`${watcher.who}: Content Security Policy report: ${body}`);
          res.writeHead(204).end();
        });
      });
      server.unref();
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/`));
    });
    const id = String(this.watchers.size + 1);
    this.watchers.set(id, { problems, who });
    return `${await this.server}?page=${id}`;
  },
};

/**
 * Playwright's script in the page (run through `eval`, see `allowTestScripts`) adds a `<style>`
 * of its own; the pages never use `eval`, so such a report is about the test, not the page.
 */
function isPlaywrightsOwnStyle(reportBody: string): boolean {
  try {
    const report = (JSON.parse(reportBody) as { 'csp-report'?: { 'effective-directive'?: string; 'source-file'?: string } })['csp-report'];
    return report?.['effective-directive'] === 'style-src-elem' && decodeURIComponent(report['source-file'] ?? '').endsWith('> eval');
  } catch {
    return false;
  }
}

/** Signs in through the sign-in page by its labels, as a person would. */
export async function fillSignIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs a person in and waits for the app page at `/`. */
export async function signIn(
  browser: Browser,
  server: BrowserServer,
  problems: PageProblems,
  person: { email: string; password: string },
): Promise<Page> {
  const { page } = await openPage(browser, problems, person.email);
  await fillSignIn(page, server.baseUrl, person.email, person.password);
  await page.waitForURL(`${server.baseUrl}/`);
  // Present even when empty, so it may have no size yet.
  await messageFeed(page).waitFor({ state: 'attached' });
  return page;
}

/** Ada and Bo on one stream, each signed in in a browser context of their own. */
export interface TwoPeople {
  server: BrowserServer;
  browser: Browser;
  problems: PageProblems;
  ada: Member;
  bo: Member;
  adaPage: Page;
  boPage: Page;
}

type Teardown = { teardown: (done: () => unknown) => void };

export interface BrowserStage {
  server: BrowserServer;
  browser: Browser;
  problems: PageProblems;
}

/** A server and a browser, both stopped when `t` ends, and the collector of their pages' problems. */
export async function browserStage(t: Teardown): Promise<BrowserStage> {
  const server = await startBrowserServer();
  t.teardown(() => server.stop());
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  return { server, browser, problems: new PageProblems() };
}

/**
 * Most browser tests' stage: a server, a browser, two people subscribed to `stream` and signed
 * in; `beforeSignIn` adjusts the organization first. Both are stopped when `t` ends.
 */
export async function twoPeopleInAStream(
  t: Teardown,
  stream: string,
  beforeSignIn: (server: BrowserServer) => Promise<void> = async () => undefined,
): Promise<TwoPeople> {
  const { server, browser, problems } = await browserStage(t);
  const ada = await createPerson(server, 'Ada');
  const bo = await createPerson(server, 'Bo');
  await createStream(server, stream, [ada, bo]);
  await beforeSignIn(server);
  const adaPage = await signIn(browser, server, problems, ada);
  const boPage = await signIn(browser, server, problems, bo);
  return { server, browser, problems, ada, bo, adaPage, boPage };
}

/** The message list: a feed (or list) named `Messages`. */
export function messageFeed(page: Page): Locator {
  return page.getByRole('feed', { name: 'Messages', exact: true }).or(page.getByRole('list', { name: 'Messages', exact: true }));
}

/** The message in the feed whose text includes `content`. */
export function messageItem(page: Page, content: string): Locator {
  const feed = messageFeed(page);
  return feed.getByRole('article').or(feed.getByRole('listitem')).filter({ hasText: content });
}

/** A status region (role="status") showing `text`. */
export function statusShowing(page: Page, text: string): Locator {
  return page.getByRole('status').filter({ hasText: text });
}

/** Sends to a stream through the compose box's labelled fields. */
export async function sendToStream(page: Page, stream: string, topic: string, content: string): Promise<void> {
  await page.getByLabel('Stream', { exact: true }).fill(stream);
  await page.getByLabel('Topic', { exact: true }).fill(topic);
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(content);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, browserName === 'chromium' ? `${name}.png` : `${name}-${browserName}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A valid PNG of `size`×`size` pixels of one colour, built here so no binary fixture is needed. */
export function solidPng(size: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [...rgb]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
