import t from 'tap';
import { loadConfig } from '../../src/config';
import { scanMultipart } from '../../src/http/multipart';
import { sanitizeFileName } from '../../workers/actions/attachments';
import { ApiError } from '../../workers/lib/errors';
import { fileReply, type StoredFile } from '../../workers/lib/file-response';
import { hasFields } from '../helpers/exact';

function body(parts: string[], boundary = 'b0undary'): Buffer {
  return Buffer.from(parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('') + `--${boundary}--\r\n`, 'latin1');
}

t.test('the multipart scanner', async (t) => {
  t.test('text fields decode as UTF-8, file parts are ranges of the body', async (t) => {
    const raw = body([
      'Content-Disposition: form-data; name="topic"\r\n\r\ncaf\u00c3\u00a9',
      'Content-Disposition: form-data; name="file"; filename="a b.txt"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2',
    ]);
    const parts = scanMultipart(raw, 'multipart/form-data; boundary=b0undary');
    t.strictSame(parts?.fields, [['topic', 'café']]);
    const file = parts?.files[0];
    hasFields(t, file, { field: 'file', filename: 'a b.txt', contentType: 'text/plain' });
    // Offsets count in the body's ArrayBuffer, which is what travels to the shard.
    t.equal(Buffer.from(raw.buffer, file?.offset, file?.length).toString(), 'line1\r\nline2', 'CRLF inside the data stays');
  });
  t.test('a quoted boundary, a file without a type, and no boundary at all', async (t) => {
    const raw = body(['Content-Disposition: form-data; name="f"; filename="x.bin"\r\n\r\n\u0000\u0001'], 'q b');
    const parts = scanMultipart(raw, 'multipart/form-data; boundary="q b"');
    hasFields(t, parts?.files, [{ filename: 'x.bin', contentType: 'application/octet-stream', length: 2 }]);
    t.equal(scanMultipart(raw, 'multipart/form-data'), null);
  });
});

t.test('file names are sanitized', async (t) => {
  t.equal(sanitizeFileName('my report (final).pdf'), 'my-report-final.pdf');
  t.equal(sanitizeFileName('../../etc/passwd'), 'etcpasswd');
  t.equal(sanitizeFileName('  spaced   out  .txt '), 'spaced-out-.txt');
  t.equal(sanitizeFileName('\uff21\uff22.txt'), 'AB.txt', 'compatibility forms are normalized');
  t.equal(sanitizeFileName('..'), 'uploaded-file');
});

t.test('ranges', async (t) => {
  const bytes = Buffer.from('0123456789');
  const file: StoredFile = { name: 'd.bin', contentType: 'application/octet-stream', size: 10, read: (s, e) => bytes.subarray(s, e) };
  const whole = fileReply(file, undefined);
  t.equal(whole.status, 200);
  t.equal(Buffer.from(whole.bytes).toString(), '0123456789');
  const cases: [string, number, string, string | undefined][] = [
    ['bytes=2-4', 206, '234', 'bytes 2-4/10'],
    ['bytes=7-', 206, '789', 'bytes 7-9/10'],
    ['bytes=-3', 206, '789', 'bytes 7-9/10'],
    ['bytes=5-100', 206, '56789', 'bytes 5-9/10'],
    ['bytes=4-2', 200, '0123456789', undefined],
    ['bytes=0-1,4-5', 200, '0123456789', undefined],
  ];
  for (const [header, status, text, contentRange] of cases) {
    const reply = fileReply(file, header);
    t.equal(reply.status, status, header);
    t.equal(Buffer.from(reply.bytes).toString(), text, header);
    t.equal(reply.headers['Content-Range'], contentRange, header);
  }
  t.throws(() => fileReply(file, 'bytes=10-'), new ApiError('Requested range not satisfiable', 'BAD_REQUEST', 416));
});

t.test('the upload limits and lifecycle durations default to the public API and the spec', async (t) => {
  const config = loadConfig({});
  t.strictSame(config.files, {
    maxUploadMib: 25,
    maxImageMib: 5,
    unclaimedExpiryMs: 21 * 86_400_000,
    sweepIntervalMs: 3_600_000,
    temporaryUrlMs: 60_000,
    realmQuotaMib: null,
  });
  t.equal(config.maxBodyBytes, 26 * 1024 * 1024, 'the upload limit plus room for the multipart framing');
  t.equal(loadConfig({ MAX_FILE_UPLOAD_SIZE_MIB: '4' }).maxBodyBytes, 5 * 1024 * 1024);
  t.equal(loadConfig({ MAX_BODY_BYTES: '1000' }).maxBodyBytes, 1000);
});
