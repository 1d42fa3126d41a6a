import http from 'node:http';
import type { Credentials } from './server';

export type Encoding = 'query' | 'form' | 'multipart';

export interface RequestSpec {
  baseUrl: string;
  method: string;
  /** Full path, e.g. /api/v1/messages or /health. */
  path: string;
  params?: Record<string, string | number | boolean | object>;
  encoding?: Encoding;
  auth?: Credentials | null;
  /** Override the Host header (realm routing). */
  host?: string;
  headers?: Record<string, string>;
  rawBody?: Buffer | string;
}

export interface ApiResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  text: string;
}

/** Values as a real client sends them: strings as-is, everything else JSON-encoded. */
/** The error body of a plain 400 `BAD_REQUEST` with this message. */
export function badRequest(msg: string): { result: 'error'; msg: string; code: 'BAD_REQUEST' } {
  return { result: 'error', msg, code: 'BAD_REQUEST' };
}

export function wireValue(value: string | number | boolean | object): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function basicAuth(credentials: Credentials): string {
  return 'Basic ' + Buffer.from(`${credentials.email}:${credentials.key}`).toString('base64');
}

function multipart(params: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = '----teamchat-test-' + Math.random().toString(16).slice(2);
  const parts = Object.entries(params).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: Buffer.from(parts.join('') + `--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function request(spec: RequestSpec): Promise<ApiResponse> {
  const params = Object.fromEntries(Object.entries(spec.params ?? {}).map(([k, v]) => [k, wireValue(v)]));
  const encoding = spec.encoding ?? (spec.method === 'GET' ? 'query' : 'form');
  let path = spec.path;
  let body: Buffer | null = null;
  const headers: Record<string, string> = { ...spec.headers };
  if (encoding === 'query') {
    const query = new URLSearchParams(params).toString();
    if (query) path += (path.includes('?') ? '&' : '?') + query;
  } else if (encoding === 'form') {
    body = Buffer.from(new URLSearchParams(params).toString());
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else {
    const encoded = multipart(params);
    body = encoded.body;
    headers['Content-Type'] = encoded.contentType;
  }
  if (spec.rawBody !== undefined) body = Buffer.from(spec.rawBody);
  if (body) headers['Content-Length'] = String(body.length);
  if (spec.auth) headers['Authorization'] = basicAuth(spec.auth);
  const url = new URL(spec.baseUrl);
  if (spec.host) headers['Host'] = spec.host;

  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: url.hostname, port: url.port, method: spec.method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: Record<string, unknown> = {};
        try {
          parsed = JSON.parse(text) as Record<string, unknown>;
        } catch {
          parsed = { unparsable: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text });
      });
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

/** A client bound to one server, one realm host and one account. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: Credentials | null,
    readonly host?: string,
  ) {}

  as(auth: Credentials | null): ApiClient {
    return new ApiClient(this.baseUrl, auth, this.host);
  }

  call(
    method: string,
    path: string,
    params: Record<string, string | number | boolean | object> = {},
    encoding?: Encoding,
  ): Promise<ApiResponse> {
    const spec: RequestSpec = { baseUrl: this.baseUrl, method, path: `/api/v1${path}`, params, auth: this.auth };
    if (encoding) spec.encoding = encoding;
    if (this.host) spec.host = this.host;
    return request(spec);
  }

  get(path: string, params: Record<string, string | number | boolean | object> = {}): Promise<ApiResponse> {
    return this.call('GET', path, params);
  }

  post(path: string, params: Record<string, string | number | boolean | object> = {}, encoding?: Encoding): Promise<ApiResponse> {
    return this.call('POST', path, params, encoding);
  }
}
