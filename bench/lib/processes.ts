import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const BUILD_ROOT = path.resolve(__dirname, '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('process exited before listening');
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

export interface Running {
  port: number;
  url: string;
  dataDir: string;
  /** The process, to read its memory (/proc/<pid>/status). */
  pid: number;
  stop(): Promise<void>;
}

// BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server under load.
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');

function runNode(script: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/**
 * The real server, on a fresh data directory (or `dataDir`, kept between runs), with request
 * logging at warn to measure the server.
 */
export async function startChatServer(env: Record<string, string> = {}, existingDataDir?: string): Promise<Running> {
  const port = await freePort();
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-'));
  const child = runNode(
    path.join(BUILD_ROOT, 'src', 'main.js'),
    [],
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      EXTERNAL_HOST: `localhost:${port}`,
      LOG_LEVEL: 'warn',
      // One user's load far past its 200 requests a minute is what the benchmarks measure.
      RATE_LIMITING: '0',
      ...env,
    },
    SERVER_NODE_ARGS,
  );
  await waitForPort(port, child);
  return { port, url: `http://127.0.0.1:${port}`, dataDir, pid: child.pid ?? 0, stop: stopper(child) };
}

/** The baseline: a bare uWS server answering the same envelope (bench/lib/baseline-server.ts). */
export async function startBaseline(): Promise<Running> {
  const port = await freePort();
  const child = runNode(path.join(__dirname, 'baseline-server.js'), [String(port)], {});
  await waitForPort(port, child);
  return { port, url: `http://127.0.0.1:${port}`, dataDir: '', pid: child.pid ?? 0, stop: stopper(child) };
}

/** The ceiling of the long-poll scenarios (bench/lib/parked-server.ts). */
export async function startParked(): Promise<Running> {
  const port = await freePort();
  const child = runNode(path.join(__dirname, 'parked-server.js'), [String(port)], {});
  await waitForPort(port, child);
  return { port, url: `http://127.0.0.1:${port}`, dataDir: '', pid: child.pid ?? 0, stop: stopper(child) };
}

/** The ceiling of a storage scenario (bench/lib/ideal-server.ts) on `dbFile`. */
export async function startIdeal(mode: 'send' | 'read', dbFile: string): Promise<Running> {
  const port = await freePort();
  const child = runNode(path.join(__dirname, 'ideal-server.js'), [String(port), mode, dbFile], {});
  await waitForPort(port, child);
  return { port, url: `http://127.0.0.1:${port}`, dataDir: path.dirname(dbFile), pid: child.pid ?? 0, stop: stopper(child) };
}

export function ownerAuthHeader(dataDir: string): string {
  const ini = fs.readFileSync(path.join(dataDir, 'owner.ini'), 'utf8');
  const email = /email=(.*)/.exec(ini)?.[1] ?? '';
  const key = /key=(.*)/.exec(ini)?.[1] ?? '';
  return 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');
}

/** The ceiling of issue 9's scenarios (bench/lib/ceiling-server.ts). */
export async function startCeiling(mode: 'echo' | 'users' | 'bytes', dbFile = ''): Promise<Running> {
  const port = await freePort();
  const child = runNode(path.join(__dirname, 'ceiling-server.js'), [String(port), mode, dbFile], {});
  await waitForPort(port, child);
  return { port, url: `http://127.0.0.1:${port}`, dataDir: '', pid: child.pid ?? 0, stop: stopper(child) };
}

/** A process's resident memory in MiB (/proc/<pid>/status VmRSS). */
export function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/** A process's CPU time so far in seconds, user and system (/proc/<pid>/stat utime + stime). */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which may hold spaces, in parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
