import t from 'tap';
import { parseAnswers, rawExchange, requestHead } from '../helpers/raw-http';
import { startServer } from '../helpers/server';

// Requests the uWebSockets.js build in use (@trufflesuite/uws-js-unofficial 20.30.0) closes
// without a byte of answer, before any of our code runs: its limits are compiled in (this build
// reads no UWS_HTTP_MAX_HEADERS_SIZE / _COUNT) and it routes only the nine standard methods.
// README "Limits of the HTTP front end" has the measurements. If a case starts being answered,
// the build has changed: assert the answer instead (431, 405/501, two 200s).
t.test('what this uWS build closes unanswered', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const head = (method: string, extra: Record<string, string> = {}): string =>
    requestHead(method, '/api/v1/server_settings', server.port, extra);
  const closedUnanswered = async (pieces: string[]): Promise<{ bytes: number; error: string | null }> => {
    const exchange = await rawExchange(server.port, pieces, { gapMs: 100 });
    return { bytes: exchange.received.length, error: exchange.error };
  };
  const statuses = async (pieces: string[]): Promise<number[]> =>
    parseAnswers((await rawExchange(server.port, pieces, { answers: 1 })).received).map((answer) => answer.status);
  const unanswered = { bytes: 0, error: null };

  const bigHead = head('GET', { Cookie: `a=${'c'.repeat(5000)}` });
  t.strictSame(await statuses([bigHead]), [200], 'control: a 5 KiB head read at once is answered');
  t.strictSame(
    await closedUnanswered([bigHead.slice(0, 3000), bigHead.slice(3000)]),
    unanswered,
    'a 5 KiB head in two segments (4 KiB buffer for partial heads)',
  );
  const fields = (count: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [`X-Field-${i}`, 'v']));
  t.strictSame(await statuses([head('GET', fields(48))]), [200], 'control: 48 header fields are answered');
  // 49 fields are held until the idle timeout (10 s on a 4 s timer) closes the connection.
  t.strictSame(await closedUnanswered([head('GET', fields(49))]), unanswered, '49 header fields, Host included');
  for (const method of ['FOO', 'PROPFIND', 'get']) {
    t.strictSame(await closedUnanswered([head(method)]), unanswered, `method ${method}`);
  }
  t.strictSame(await closedUnanswered([head('GET') + head('GET')]), unanswered, 'two pipelined requests, the first answered by a shard');
});
