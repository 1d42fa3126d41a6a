import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from './http';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER_ENTRY = path.join(REPO_ROOT, 'build', 'src', 'main.js');

export interface Credentials {
  email: string;
  key: string;
}

export interface TestServer {
  port: number;
  baseUrl: string;
  dataDir: string;
  owner: Credentials & { password: string };
  process: ChildProcess;
  output: () => string;
  /**
   * The first line of output that `matches`, waiting for it if it is not there yet: the server
   * writes its log through a pipe, so a line may arrive after the answer to the request behind it.
   */
  logLine(matches: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** SIGTERM and wait; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: a crash, for durability tests. */
  kill(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** A fixed port, for a restart that clients must find where they left it. */
  port?: number;
  /** The process does not serve the default realm (REALMS, PLACEMENT_FILE), so writes no owner.ini. */
  withoutDefaultRealm?: boolean;
}

export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-test-'));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => resolve(address.port));
    });
  });
}

export function readIni(file: string): Record<string, string> {
  return readIniText(fs.readFileSync(file, 'utf8'));
}

/** The key=value lines of an INI text (the `[api]` section that create-realm prints). */
export function readIniText(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return values;
}

/** Starts the real server (build/src/main.js) on a free port and a temporary data dir. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDataDir();
  let output = '';
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EXTERNAL_HOST: `localhost:${port}`,
      // The default of a 2-core machine; a test of several shards asks for them. Each shard
      // thread loads the whole domain layer, the larger part of a start's CPU.
      SHARDS: '1',
      LOG_LEVEL: 'warn',
      TEST_HOOKS: '1',
      // Every answer and event is checked against the schema the code declares for it.
      CONTRACT_CHECKS: '1',
      // A test file sends far more than a user's 200 requests a minute; rate-limit tests turn it on.
      RATE_LIMITING: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    // A broken wire contract (CONTRACT_CHECKS) is shown even where a test reads only the status.
    if (text.includes('contract violation')) process.stderr.write(text);
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start:\n${output}`);
    try {
      const health = await request({ baseUrl, method: 'GET', path: '/health' });
      if (health.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const ini = options.withoutDefaultRealm ? {} : readIni(path.join(dataDir, 'owner.ini'));
  return {
    port,
    baseUrl,
    dataDir,
    owner: { email: ini['email'] ?? '', key: ini['key'] ?? '', password: ini['password'] ?? '' },
    process: child,
    output: () => output,
    logLine: (matches, timeoutMs = 5_000) => firstLine(child, () => output, matches, timeoutMs),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

function firstLine(child: ChildProcess, output: () => string, matches: (line: string) => boolean, timeoutMs: number): Promise<string> {
  const find = (): string | undefined => output().split('\n').find(matches);
  const found = find();
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const line = find();
      if (line === undefined) return;
      done();
      resolve(line);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no matching log line within ${timeoutMs} ms`));
    }, timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
    };
    // Registered after the listeners that append to the output, so each chunk is in it by now.
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
  });
}
