import t from 'tap';
import { basicAuth } from '../helpers/http';
import { parseAnswers, rawExchange, requestHead } from '../helpers/raw-http';
import { startServer } from '../helpers/server';

const UPLOAD_BYTES = 30 * 1000 * 1000;
const UPLOADS = 20;
const CONCURRENT = 4;
// The default limit: the 25 MiB upload limit plus 1 MiB of multipart framing.
const LIMIT = 26 * 1024 * 1024;

/** A multipart upload of `size` bytes in all, split in 1 MiB pieces as a client writes it. */
function uploadPieces(port: number, authorization: string, size: number): Buffer[] {
  const boundary = 'lingering-close-test';
  const opening = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  const head = requestHead('POST', '/api/v1/user_uploads', port, {
    Authorization: authorization,
    'Content-Type': `multipart/form-data; boundary=${boundary}`,
    'Content-Length': String(size),
  });
  const filler = Buffer.alloc(1024 * 1024, 0x61);
  const pieces = [Buffer.from(head), opening];
  let left = size - opening.length - closing.length;
  while (left > 0) {
    pieces.push(left >= filler.length ? filler : filler.subarray(0, left));
    left -= filler.length;
  }
  pieces.push(closing);
  return pieces;
}

t.test('a client sending a body over the limit reads the 413 instead of a reset connection', async (t) => {
  const server = await startServer();
  t.teardown(() => server.stop());
  const pieces = uploadPieces(server.port, basicAuth(server.owner), UPLOAD_BYTES);
  const expected = { result: 'error', msg: `Request body too large (limit: ${LIMIT} bytes)`, code: 'BAD_REQUEST' };

  const outcomes: string[] = [];
  const worker = async (): Promise<void> => {
    while (outcomes.length < UPLOADS) {
      const index = outcomes.length;
      outcomes.push('pending');
      const exchange = await rawExchange(server.port, pieces);
      const [answer] = parseAnswers(exchange.received);
      const body = answer ? (JSON.parse(answer.body) as unknown) : null;
      const read = answer?.status === 413 && answer.headers['connection'] === 'close' && JSON.stringify(body) === JSON.stringify(expected);
      outcomes[index] =
        read && exchange.error === null ? 'read the 413' : `status ${answer?.status ?? 'none'}, error ${exchange.error ?? 'none'}`;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT }, worker));
  t.strictSame(
    outcomes,
    Array.from({ length: UPLOADS }, () => 'read the 413'),
  );
});

t.test('a chunked body that outgrows the limit is read to its end, then refused', async (t) => {
  const server = await startServer({ env: { MAX_BODY_BYTES: '1000' } });
  t.teardown(() => server.stop());
  const chunk = (text: string): string => `${text.length.toString(16)}\r\n${text}\r\n`;
  const head = requestHead('POST', '/api/v1/messages', server.port, {
    Authorization: basicAuth(server.owner),
    'Content-Type': 'application/x-www-form-urlencoded',
    'Transfer-Encoding': 'chunked',
  });
  const pieces = [head, ...Array.from({ length: 50 }, () => chunk('a'.repeat(64 * 1024))), '0\r\n\r\n'];
  const exchange = await rawExchange(server.port, pieces);
  t.equal(exchange.error, null, 'no reset');
  const answers = parseAnswers(exchange.received);
  t.strictSame(
    answers.map((answer) => [answer.status, JSON.parse(answer.body) as unknown]),
    [[413, { result: 'error', msg: 'Request body too large (limit: 1000 bytes)', code: 'BAD_REQUEST' }]],
  );
});

t.test('a client that announces a body over the limit and sends none still gets the 413', async (t) => {
  const server = await startServer({ env: { MAX_BODY_BYTES: '1000' } });
  t.teardown(() => server.stop());
  const head = requestHead('POST', '/api/v1/messages', server.port, {
    Authorization: basicAuth(server.owner),
    'Content-Type': 'application/x-www-form-urlencoded',
    'Content-Length': '5000',
  });
  // Answered when the client has sent nothing for a while, before uWS's idle timeout would close it silently.
  const exchange = await rawExchange(server.port, [head]);
  t.strictSame(
    parseAnswers(exchange.received).map((answer) => [answer.status, answer.headers['connection'], JSON.parse(answer.body) as unknown]),
    [[413, 'close', { result: 'error', msg: 'Request body too large (limit: 1000 bytes)', code: 'BAD_REQUEST' }]],
  );
});
