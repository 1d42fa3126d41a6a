/**
 * Tests in a real browser: Debian's chromium driven by playwright-core (no browser download),
 * against the real server. Each test file asks `browserSkipReason()` first and skips when the
 * browser is absent, saying why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { ApiClient } from '../helpers/http';
import { createMember, type Member } from '../helpers/fixtures';
import { freePort, REPO_ROOT, startServer, tempDataDir, type TestServer } from '../helpers/server';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(REPO_ROOT, 'build', 'artifacts', 'screenshots');
// Long enough for a loaded machine (five people share two cores); waits end as soon as the page is ready.
export const UI_TIMEOUT_MS = 15_000;

/** Why this machine cannot run the browser tests, or null when it can. */
export function browserSkipReason(): string | null {
  if (!fs.existsSync(CHROMIUM_PATH)) return 'chromium not installed: apt-get install chromium';
  return null;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
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

/** What went wrong in a page that the page itself does not show: CSP violations and uncaught errors. */
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
  const page = await context.newPage();
  problems.watch(page, who);
  return { context, page };
}

/** Signs in through the sign-in page by its labels, as a person would. */
export async function fillSignIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs a person in and waits for the app page at `/`. */
export async function signIn(browser: Browser, server: BrowserServer, problems: PageProblems, person: { email: string; password: string }): Promise<Page> {
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

/**
 * Most browser tests' stage: a server, a browser, two people subscribed to `stream` and signed
 * in; `beforeSignIn` adjusts the organization first. Both are stopped when `t` ends.
 */
export async function twoPeopleInAStream(
  t: { teardown: (done: () => unknown) => void },
  stream: string,
  beforeSignIn: (server: BrowserServer) => Promise<void> = async () => undefined,
): Promise<TwoPeople> {
  const server = await startBrowserServer();
  t.teardown(() => server.stop());
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const problems = new PageProblems();
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
  const file = path.join(SCREENSHOTS, `${name}.png`);
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
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
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
