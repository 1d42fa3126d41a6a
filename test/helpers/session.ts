import { request, type ApiResponse, type Encoding } from './http';

/** A signed-in browser as the server sees it: the two cookies POST /login set. */
export interface WebSession {
  sessionId: string;
  csrfToken: string;
}

/** The Set-Cookie headers of a response, as sent (one entry per header). */
export function setCookies(res: { headers: { 'set-cookie'?: string[] | undefined } }): string[] {
  return res.headers['set-cookie'] ?? [];
}

/** A cookie's value from Set-Cookie headers; undefined when none sets it. */
export function cookieFrom(headers: readonly string[], name: string): string | undefined {
  const line = headers.find((header) => header.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

/** POST /login as the sign-in page sends it (urlencoded). */
export function postLogin(baseUrl: string, username: string, password: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return request({ baseUrl, method: 'POST', path: '/login', params: { username, password }, encoding: 'form', headers });
}

/** Signs in and returns the session, failing loudly when the server refuses. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<WebSession> {
  const res = await postLogin(baseUrl, username, password);
  const cookies = setCookies(res);
  const sessionId = cookieFrom(cookies, 'sessionid');
  const csrfToken = cookieFrom(cookies, 'csrftoken');
  if (res.status !== 200 || !sessionId || !csrfToken) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { sessionId, csrfToken };
}

export interface SessionCallOptions {
  /** The X-CSRF-Token header: the session's by default, null to leave it out. */
  csrf?: string | null;
  encoding?: Encoding;
  /** Extra headers (Authorization, X-Forwarded-Proto). */
  headers?: Record<string, string>;
}

/** The web page's calls: /json/... with the session cookie (and the CSRF header). */
export class SessionClient {
  constructor(
    readonly baseUrl: string,
    readonly session: WebSession | null,
  ) {}

  cookieHeader(): Record<string, string> {
    return this.session ? { Cookie: `sessionid=${this.session.sessionId}; csrftoken=${this.session.csrfToken}` } : {};
  }

  call(
    method: string,
    path: string,
    params: Record<string, string | number | boolean | object> = {},
    options: SessionCallOptions = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...this.cookieHeader(), ...options.headers };
    const csrf = options.csrf === undefined ? this.session?.csrfToken : options.csrf;
    if (csrf !== undefined && csrf !== null) headers['X-CSRF-Token'] = csrf;
    const spec: Parameters<typeof request>[0] = { baseUrl: this.baseUrl, method, path: `/json${path}`, params, headers };
    if (options.encoding) spec.encoding = options.encoding;
    return request(spec);
  }

  get(path: string, params: Record<string, string | number | boolean | object> = {}): Promise<ApiResponse> {
    return this.call('GET', path, params);
  }

  post(
    path: string,
    params: Record<string, string | number | boolean | object> = {},
    options: SessionCallOptions = {},
  ): Promise<ApiResponse> {
    return this.call('POST', path, params, options);
  }
}
