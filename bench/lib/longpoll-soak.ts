import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { basicAuth } from './api';
import { percentile, sleep } from './parked-polls';
import { BUILD_ROOT, ownerAuthHeader, rssMiB, startChatServer, type Running } from './processes';

/**
 * `npm run soak -- longpoll [--minutes N] [--queues N] [--rate N]`: event queues parked on
 * GET /events across three realms while each realm's owner sends to a stream every queue's
 * user is subscribed to, at a steady rate. Every queue must receive every message of its realm
 * exactly once (SPEC §Events 1). Prints send rate, send latency, send→event latency, events
 * lost and duplicated, memory per 1,000 queues, open file descriptors at start and end, and
 * PRAGMA integrity_check of every realm file after a clean stop.
 */
export interface LongpollOptions {
  minutes: number;
  queues: number;
  /** Messages a second, over all realms. */
  rate: number;
}

const REALMS = ['default', 'soaktwo', 'soakthree'];
const QUEUES_PER_USER = 20;
const STREAM = 'soak';

interface Realm {
  name: string;
  host: string;
  ownerAuth: string;
  /** When each message of this realm was sent, by message ID. */
  sentAt: Map<number, number>;
}

interface Queue {
  realm: Realm;
  auth: string;
  id: string;
  lastEventId: number;
  seen: Set<number>;
  duplicates: number;
  socket: net.Socket;
}

export function openFileDescriptors(pid: number): number {
  return fs.readdirSync(`/proc/${pid}/fd`).length;
}

function createRealm(server: Running, subdomain: string): Realm {
  const host = `${subdomain}.localhost:${server.port}`;
  const env = { ...process.env, DATA_DIR: server.dataDir, EXTERNAL_HOST: `localhost:${server.port}` };
  const args = ['create-realm', '--subdomain', subdomain, '--name', subdomain, '--owner-email', `boss@${subdomain}.test`];
  const created = spawnSync(process.execPath, [path.join(BUILD_ROOT, 'src', 'cli', 'manage.js'), ...args], { env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`create-realm ${subdomain}: ${created.stderr}`);
  const value = (key: string): string => new RegExp(`^${key}=(.*)$`, 'm').exec(created.stdout)?.[1]?.trim() ?? '';
  return { name: subdomain, host, ownerAuth: basicAuth(value('email'), value('key')), sentAt: new Map() };
}

/** An API call on a realm's host (global fetch cannot set Host). */
async function call(
  server: Running,
  realm: Realm,
  auth: string,
  method: string,
  apiPath: string,
  params: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const body = new URLSearchParams(
    Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  ).toString();
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', text = ''] = received.split('\r\n\r\n', 2);
      const parsed = JSON.parse(text) as Record<string, unknown>;
      if (!head.startsWith('HTTP/1.1 200')) reject(new Error(`${method} ${apiPath} on ${realm.name}: ${head.split('\r\n')[0]} ${text}`));
      else resolve(parsed);
    });
    socket.write(
      `${method} /api/v1${apiPath} HTTP/1.1\r\nHost: ${realm.host}\r\nAuthorization: ${auth}\r\nConnection: close\r\n` +
        `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  });
}

/** Users of `realm` on its soak stream, each with their Authorization header. */
async function audience(server: Running, realm: Realm, users: number): Promise<string[]> {
  const auths: string[] = [];
  const ids: number[] = [];
  for (let i = 0; i < users; i++) {
    const email = `soak-${realm.name}-${i}@example.com`;
    const password = `pw-${i}-soak-long`;
    const created = await call(server, realm, realm.ownerAuth, 'POST', '/users', { email, password, full_name: `Soak ${i}` });
    ids.push(Number(created['user_id']));
    const fetched = await call(server, realm, '', 'POST', '/fetch_api_key', { username: email, password });
    auths.push(basicAuth(email, String(fetched['api_key'])));
  }
  await call(server, realm, realm.ownerAuth, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: STREAM }], principals: ids });
  return auths;
}

/** When each message was sent, by the number in its content. */
const sendStarts = new Map<number, number>();

/** Keeps one poll parked on `queue`'s own keep-alive socket, counting what arrives. */
function keepPolling(queue: Queue, eventLatencies: number[], failures: { count: number }, running: () => boolean): void {
  let received = Buffer.alloc(0);
  const ask = (): void => {
    const query = `queue_id=${encodeURIComponent(queue.id)}&last_event_id=${queue.lastEventId}`;
    queue.socket.write(`GET /api/v1/events?${query} HTTP/1.1\r\nHost: ${queue.realm.host}\r\nAuthorization: ${queue.auth}\r\n\r\n`);
  };
  queue.socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const headerEnd = received.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const head = received.subarray(0, headerEnd).toString('latin1');
    const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (received.length < headerEnd + 4 + length) return;
    const now = performance.now();
    const body = received.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    received = received.subarray(headerEnd + 4 + length);
    if (!head.startsWith('HTTP/1.1 200')) failures.count++;
    else {
      const events =
        (JSON.parse(body) as { events?: { id: number; type: string; message?: { id: number; content: string } }[] }).events ?? [];
      for (const event of events) {
        queue.lastEventId = Math.max(queue.lastEventId, event.id);
        if (event.type !== 'message' || !event.message) continue;
        if (queue.seen.has(event.message.id)) queue.duplicates++;
        queue.seen.add(event.message.id);
        // Counted from the send's start, by the number in its content: the event may come before the answer.
        const sent = sendStarts.get(Number(/message (\d+)/.exec(event.message.content)?.[1]));
        if (sent !== undefined) eventLatencies.push(now - sent);
      }
    }
    if (running()) ask();
  });
  ask();
}

function figures(sorted: number[]): string {
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`;
}

export async function longpollSoak(options: LongpollOptions): Promise<number> {
  const server = await startChatServer({ HOST: '127.0.0.1', SHARDS: '2' });
  const realms: Realm[] = [
    { name: 'default', host: `localhost:${server.port}`, ownerAuth: ownerAuthHeader(server.dataDir), sentAt: new Map() },
    ...REALMS.slice(1).map((name) => createRealm(server, name)),
  ];
  const usersPerRealm = Math.ceil(options.queues / REALMS.length / QUEUES_PER_USER);
  const auths = await Promise.all(realms.map((realm) => audience(server, realm, usersPerRealm)));
  const rssBefore = rssMiB(server.pid);

  const queues: Queue[] = [];
  const eventLatencies: number[] = [];
  const failures = { count: 0 };
  let running = true;
  for (let i = 0; i < options.queues; i++) {
    const r = i % realms.length;
    const realm = realms[r] as Realm;
    const realmAuths = auths[r] as string[];
    const auth = realmAuths[Math.floor(i / realms.length) % realmAuths.length] as string;
    const registered = await call(server, realm, auth, 'POST', '/register', { event_types: ['message'] });
    const socket = net.connect(server.port, '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('error', () => failures.count++);
    const queue: Queue = {
      realm,
      auth,
      id: String(registered['queue_id']),
      lastEventId: Number(registered['last_event_id']),
      seen: new Set(),
      duplicates: 0,
      socket,
    };
    queues.push(queue);
    keepPolling(queue, eventLatencies, failures, () => running);
  }
  await sleep(2_000);
  const rssParked = rssMiB(server.pid);
  const fdsStart = openFileDescriptors(server.pid);
  console.log(
    `${queues.length} queues parked in ${realms.length} realms (${usersPerRealm} users each); the machine is shared, figures are indicative`,
  );

  // Steady sending: one message every 1/rate s, the realms in turn, each owner on its own connection.
  const sendLatencies: number[] = [];
  let sendFailures = 0;
  const started = performance.now();
  const endAt = started + options.minutes * 60_000;
  const inFlight: Promise<void>[] = [];
  for (let n = 0; performance.now() < endAt; n++) {
    const due = started + (n * 1000) / options.rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const realm = realms[n % realms.length] as Realm;
    const at = performance.now();
    sendStarts.set(n, at);
    inFlight.push(
      call(server, realm, realm.ownerAuth, 'POST', '/messages', {
        type: 'stream',
        to: STREAM,
        topic: 'soak',
        content: `message ${n}`,
      }).then(
        (answer) => {
          sendLatencies.push(performance.now() - at);
          realm.sentAt.set(Number(answer['id']), at);
        },
        () => void sendFailures++,
      ),
    );
    if (n % (options.rate * 30) === 0 && n > 0)
      console.log(`  ${Math.round((performance.now() - started) / 1000)} s: ${n} sent, RSS ${rssMiB(server.pid).toFixed(0)} MiB`);
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - started) / 1000;

  // Let the last events arrive, then count what each queue missed or got twice.
  const expected = (): number => queues.reduce((sum, q) => sum + q.realm.sentAt.size, 0);
  const received = (): number => queues.reduce((sum, q) => sum + [...q.seen].filter((id) => q.realm.sentAt.has(id)).length, 0);
  for (let waited = 0; received() < expected() && waited < 15_000; waited += 250) await sleep(250);
  const fdsEnd = openFileDescriptors(server.pid);
  running = false;
  const lost = expected() - received();
  const duplicated = queues.reduce((sum, q) => sum + q.duplicates, 0);
  const sent = realms.reduce((sum, r) => sum + r.sentAt.size, 0);
  for (const queue of queues) queue.socket.destroy();
  await server.stop();

  const integrity = fs
    .readdirSync(path.join(server.dataDir, 'realms'))
    .filter((file) => file.endsWith('.sqlite3'))
    .map((file) => {
      const db = new Database(path.join(server.dataDir, 'realms', file), { readonly: true });
      const result = String(db.pragma('integrity_check', { simple: true }));
      db.close();
      return `${file} ${result}`;
    });

  sendLatencies.sort((a, b) => a - b);
  eventLatencies.sort((a, b) => a - b);
  console.log(`duration: ${elapsed.toFixed(0)} s; sent ${sent} messages (${(sent / elapsed).toFixed(1)}/s), ${sendFailures} sends failed`);
  console.log(`send latency: ${figures(sendLatencies)}`);
  console.log(`send→event latency: ${figures(eventLatencies)} over ${eventLatencies.length} deliveries`);
  console.log(`events lost: ${lost}, duplicated: ${duplicated} (of ${expected()} expected); poll errors: ${failures.count}`);
  console.log(
    `RSS: ${rssBefore.toFixed(0)} MiB before the queues, ${rssParked.toFixed(0)} MiB parked: ${(((rssParked - rssBefore) * 1000) / queues.length).toFixed(1)} MiB per 1,000 queues`,
  );
  console.log(`open file descriptors: ${fdsStart} at start, ${fdsEnd} at end`);
  console.log(`integrity: ${integrity.join(', ')}`);
  const held =
    lost === 0 && duplicated === 0 && sendFailures === 0 && integrity.every((line) => line.endsWith(' ok')) && fdsEnd <= fdsStart + 10;
  console.log(held ? 'longpoll soak: held' : 'longpoll soak: FAILED');
  return held ? 0 : 1;
}
