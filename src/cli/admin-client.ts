import http from 'node:http';
import { adminSocketPath } from '../admin/server';
import type { AdminArgs, AdminCommand, AdminResult } from '../wire/admin';

/** No server answers on the data directory's admin socket: the caller works on the files. */
export class NoServerError extends Error {}

/**
 * Sends one command to the server running on `dataDir` through its admin socket (src/admin/),
 * which runs it in the shard that owns `realm`. Rejects with NoServerError when no server is
 * running there (no socket, or a stale one nobody listens on).
 */
export function callAdmin(dataDir: string, command: AdminCommand, realm: string, args: AdminArgs): Promise<AdminResult> {
  const body = JSON.stringify({ command, realm, args });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: adminSocketPath(dataDir),
        // One request per connection: a kept-alive one would hold up the server's stop.
        agent: false,
        method: 'POST',
        path: '/command',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as AdminResult);
          } catch {
            reject(new Error(`the server's admin socket answered ${res.statusCode ?? '?'} with no result`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') reject(new NoServerError('no server is running on this data directory'));
      else reject(err);
    });
    req.end(body);
  });
}
