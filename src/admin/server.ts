import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../log';
import { ADMIN_COMMANDS, ADMIN_SOCKET_NAME, type AdminRequest, type AdminResult } from '../wire/admin';
import { REALM_NAME_PATTERN } from '../wire/realm-names';

/** Where the admin socket of the server using `dataDir` listens. */
export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), ADMIN_SOCKET_NAME);
}

const requestSchema = z.strictObject({
  command: z.enum(ADMIN_COMMANDS),
  realm: z.string().regex(REALM_NAME_PATTERN, 'not a realm name'),
  args: z.record(z.string(), z.union([z.string(), z.boolean()])),
});

// A command is a few hundred bytes; a restore names its file rather than sending it.
const MAX_REQUEST_BYTES = 64 * 1024;

/** Runs one admin command where the realm is served (ShardPool.admin). */
export type AdminRunner = (request: AdminRequest) => Promise<AdminResult>;

/**
 * The admin channel (issue 23 "Management CLI"): HTTP over a Unix socket in the data
 * directory, not a TCP port. The file's mode (0600) limits it to the server's own user, it is
 * unreachable from the network even when HOST is public, and two servers on one machine cannot
 * collide on it since each has its own data directory. `POST /command` takes an AdminRequest
 * as JSON and answers an AdminResult: 200 when it succeeded, 400/404/409/500 when not.
 */
export class AdminServer {
  private readonly server: http.Server;

  constructor(
    private readonly socketPath: string,
    private readonly run: AdminRunner,
    private readonly log: Logger,
  ) {
    this.server = http.createServer((req, res) => void this.answer(req, res));
  }

  async listen(): Promise<void> {
    await removeStaleSocket(this.socketPath);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      // The socket file gets the umask's mode: narrowed while listen() binds it (synchronously),
      // so no other user can connect before the chmod either, and restored at once.
      const umask = process.umask(0o177);
      try {
        this.server.listen(this.socketPath, () => {
          this.server.off('error', reject);
          resolve();
        });
      } finally {
        process.umask(umask);
      }
    });
    fs.chmodSync(this.socketPath, 0o600);
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    return closed;
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = (status: number, result: AdminResult): void => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(result));
    };
    if (req.method !== 'POST' || req.url !== '/command') {
      return send(404, { ok: false, code: 'bad-argument', message: 'POST /command is the only admin endpoint' });
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch (err) {
      return send(400, { ok: false, code: 'bad-argument', message: err instanceof Error ? err.message : 'unreadable request' });
    }
    const parsed = requestSchema.safeParse(body);
    if (!parsed.success) {
      return send(400, { ok: false, code: 'bad-argument', message: `bad admin request: ${parsed.error.issues[0]?.message ?? ''}` });
    }
    try {
      const result = await this.run(parsed.data);
      this.log.info({ command: parsed.data.command, realm: parsed.data.realm, ok: result.ok }, 'admin command');
      send(result.ok ? 200 : statusFor(result.code), result);
    } catch (err) {
      this.log.error({ err, command: parsed.data.command }, 'admin command failed');
      send(500, { ok: false, code: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }
}

function statusFor(code: Exclude<AdminResult, { ok: true }>['code']): number {
  switch (code) {
    case 'bad-argument':
    case 'damaged':
      return 400;
    case 'no-such-realm':
    case 'no-such-user':
      return 404;
    case 'refused':
    case 'served':
      return 409;
    case 'failed':
      return 500;
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(new Error('admin request too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A socket file left by a server that did not stop cleanly is removed; one that answers
 * belongs to a server still running on this data directory, which is an error.
 */
async function removeStaleSocket(socketPath: string): Promise<void> {
  if (!fs.existsSync(socketPath)) return;
  const live = await new Promise<boolean>((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new Error(`another server is running on this data directory (its admin socket ${socketPath} answers)`);
  fs.rmSync(socketPath, { force: true });
}
