import net from 'node:net';

/** What a raw connection saw: every byte the server wrote, and how the connection ended. */
export interface RawExchange {
  received: Buffer;
  /** The socket error (EPIPE, ECONNRESET …), or null for a clean close. */
  error: string | null;
}

/** One HTTP/1.1 answer read off the wire. */
export interface WireAnswer {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface RawOptions {
  /**
   * Milliseconds between pieces, so that each leaves as its own TCP segment and is read by the
   * server on its own (the kernel would otherwise hand the server all pieces in one read).
   */
  gapMs?: number;
  /** Half-close after the last piece (the server still answers). Default: keep writing side open. */
  end?: boolean;
  /** Stop waiting for the close once this many complete answers are in, and close. */
  answers?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `pieces` to a fresh connection and collects the server's bytes until it closes. */
export function rawExchange(port: number, pieces: readonly (string | Buffer)[], options: RawOptions = {}): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      resolve({ received: Buffer.concat(chunks), error });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (options.answers !== undefined && parseAnswers(Buffer.concat(chunks)).length >= options.answers) {
        socket.destroy();
        finish();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    socket.on('close', finish);
    socket.once('connect', () => {
      void (async () => {
        for (const [index, piece] of pieces.entries()) {
          if (socket.destroyed) return;
          if (index > 0 && options.gapMs) await sleep(options.gapMs);
          if (!socket.write(piece)) await new Promise((resolve) => socket.once('drain', resolve));
        }
        if (options.end && !socket.destroyed) socket.end();
      })();
    });
  });
}

/** Splits bytes into the complete answers at their start (Content-Length framing only). */
export function parseAnswers(bytes: Buffer): WireAnswer[] {
  const answers: WireAnswer[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return answers;
    const [statusLine = '', ...lines] = bytes.toString('latin1', offset, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
    const length = Number(headers['content-length'] ?? '0');
    const bodyStart = headEnd + 4;
    if (bytes.length < bodyStart + length) return answers;
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: bytes.toString('utf8', bodyStart, bodyStart + length) });
    offset = bodyStart + length;
  }
}

/** A request head as a client writes it. */
export function requestHead(method: string, path: string, port: number, headers: Record<string, string> = {}): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: localhost:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return lines.join('\r\n') + '\r\n\r\n';
}
