import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import t from 'tap';
import { multipartBody, rawRequest, type RawResponse } from '../helpers/files';
import { ApiClient, basicAuth } from '../helpers/http';
import { startServer } from '../helpers/server';

const MIB = 1024 * 1024;
const SLOW_CLIENTS = 8;

/**
 * The server's private writable memory (VmData, kB → bytes). Not VmRSS: a buffer allocated for
 * a body but not yet written is memory the process holds without touching its pages, which RSS
 * does not count.
 */
function dataBytes(pid: number): number {
  const line = /^VmData:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error('no VmData in /proc status');
  return Number(line[1]) * 1024;
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

t.test('an upload holds memory for the bytes it sent, not for the Content-Length it announced', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const pid = server.process.pid as number;
  const api = new ApiClient(server.baseUrl, server.owner);
  const file = randomBytes(24 * MIB);
  const { body, contentType } = multipartBody([
    { field: 'file', filename: 'big.bin', contentType: 'application/octet-stream', data: file },
  ]);
  const before = dataBytes(pid);

  // Each client announces the whole body and sends its first 100 bytes only.
  // An answer, or null for the clients stopped at the end without one.
  const answers: Promise<RawResponse | null>[] = [];
  const requests: http.ClientRequest[] = [];
  for (let i = 0; i < SLOW_CLIENTS; i++) {
    const url = new URL(server.baseUrl);
    const req = http.request({
      hostname: url.hostname,
      port: url.port,
      method: 'POST',
      path: '/api/v1/user_uploads',
      agent: false,
      headers: { Authorization: basicAuth(server.owner), 'Content-Type': contentType, 'Content-Length': String(body.length) },
    });
    answers.push(
      new Promise((resolve) => {
        req.on('error', () => resolve(null));
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: bytes,
              json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown>,
            });
          });
        });
      }),
    );
    await new Promise<void>((resolve) => req.write(body.subarray(0, 100), () => resolve()));
    requests.push(req);
  }
  t.teardown(() => requests.forEach((req) => req.destroy()));
  // A request through a shard and back, sent after those bytes: the server has read them by its answer.
  t.equal((await api.get('/users/me')).status, 200);

  const held = dataBytes(pid) - before;
  const announced = SLOW_CLIENTS * body.length;
  t.ok(
    held < announced / 8,
    `${SLOW_CLIENTS} bodies of ${body.length} bytes announced, 100 bytes each sent: ${(held / MIB).toFixed(1)} MiB more held`,
  );

  // One of them sends the rest: the file arrives whole.
  const [first] = requests as [http.ClientRequest];
  first.end(body.subarray(100));
  const answer = await (answers[0] as Promise<RawResponse | null>);
  if (!answer) throw new Error('the completed upload got no answer');
  t.equal(answer.status, 200);
  const uri = String(answer.json()['uri']);
  const stored = await rawRequest(server.baseUrl, uri, { auth: server.owner });
  t.equal(stored.status, 200);
  t.strictSame(sha256(stored.body), sha256(file), 'the stored file is the bytes sent');
});
