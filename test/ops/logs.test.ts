import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import t from 'tap';
import { ApiClient } from '../helpers/http';
import { freePort, REPO_ROOT, startServer, tempDataDir } from '../helpers/server';

// Logs (issue 23 "Observability"): readable pino-pretty lines when stdout is a terminal and
// LOG_FORMAT is not `json`; JSON lines otherwise. Either way one line per request at info with
// its realm, route, status and duration.

const SERVER_ENTRY = path.join(REPO_ROOT, 'build', 'src', 'main.js');
// util-linux `script` gives the server a terminal as its stdout.
const hasScript = spawnSync('script', ['--version']).status === 0;
const ANSI_COLOR = /\x1b\[[0-9;]*m/g;

/** The server's output under a terminal, once a request line for GET /users/me is in it. */
async function outputOnATerminal(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER_ENTRY)}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: tempDataDir(), SHARDS: '1', LOG_LEVEL: 'info', RATE_LIMITING: '0', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const api = new ApiClient(`http://127.0.0.1:${port}`, null);
    const deadline = Date.now() + 20_000;
    while (!output.replace(ANSI_COLOR, '').includes('GET /users/me') && Date.now() < deadline) {
      await api.get('/users/me').catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return output.replace(/\r/g, '');
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const REQUEST_FIELDS = '"method":"GET","path":"/api/v1/users/me","realm":"default","route":"GET /users/me","status":401,"ms":';

t.test(
  'on a terminal the lines are readable, in colour',
  { skip: hasScript ? false : 'no `script` to give the server a terminal' },
  async (t) => {
    const output = await outputOnATerminal({});
    const plain = output.replace(ANSI_COLOR, '');
    const requestLine = plain.split('\n').find((line) => line.includes('"route":"GET /users/me"')) ?? '';
    t.match(requestLine, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(server\): request \{/, `a pretty request line: ${requestLine}`);
    t.ok(requestLine.includes(REQUEST_FIELDS), 'with its realm, route, status and duration');
    t.ok(/INFO \(shard\): realm opened \{"shard":0,"realm":"default"\}/.test(plain), 'the shards write pretty lines too');
    t.ok(output.includes('\x1b[32mINFO'), 'coloured for the terminal');
  },
);

t.test(
  'LOG_FORMAT=json keeps JSON lines on a terminal',
  { skip: hasScript ? false : 'no `script` to give the server a terminal' },
  async (t) => {
    const output = await outputOnATerminal({ LOG_FORMAT: 'json' });
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    const unparsable = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    t.strictSame(unparsable, [], 'every line is a JSON object');
    t.ok(lines.some((line) => line.includes(REQUEST_FIELDS)));
  },
);

t.test('without a terminal the lines are JSON', async (t) => {
  const server = await startServer({ env: { LOG_LEVEL: 'info' } });
  t.teardown(() => server.stop());
  await new ApiClient(server.baseUrl, server.owner).get('/users/me');
  const line = await server.logLine((text) => text.includes('"route":"GET /users/me"'));
  const { time, pid, ms, ...fields } = JSON.parse(line) as Record<string, unknown>;
  t.strictSame(
    [typeof time, typeof pid, typeof ms, fields],
    [
      'number',
      'number',
      'number',
      {
        level: 30,
        name: 'server',
        method: 'GET',
        path: '/api/v1/users/me',
        realm: 'default',
        route: 'GET /users/me',
        status: 200,
        msg: 'request',
      },
    ],
  );
});
