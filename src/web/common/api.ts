/**
 * The page's one door to the server: every call goes to /json/ (the /api/v1/ routes served
 * for a signed-in browser), with the session cookie the browser sends by itself and, on every
 * method but GET, the CSRF token that sign-in left in the readable `csrftoken` cookie.
 */

export type ParamValue = string | number | boolean | null | readonly unknown[] | Record<string, unknown>;
export type Params = Record<string, ParamValue | undefined>;

/** A JSON answer whose `result` is not `success` (or a transport failure, status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const CSRF_COOKIE = 'csrftoken';

export function csrfToken(cookies: string = document.cookie): string {
  for (const pair of cookies.split(';')) {
    const [name, ...rest] = pair.trim().split('=');
    if (name === CSRF_COOKIE) return decodeURIComponent(rest.join('='));
  }
  return '';
}

/** The API's wire convention: strings as they are, everything else JSON-encoded. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let signedOutHandler: (() => void) | null = null;

/** Called when any /json call answers 401: the session ended (expired, signed out elsewhere). */
export function onSignedOut(handler: () => void): void {
  signedOutHandler = handler;
}

export async function call<T = Record<string, unknown>>(
  method: Method,
  path: string,
  params: Params = {},
  signal?: AbortSignal,
): Promise<T> {
  const form = encodeParams(params);
  const query = method === 'GET' && [...form].length > 0 ? `?${form.toString()}` : '';
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (signal) init.signal = signal;
  if (method !== 'GET') {
    init.headers = { 'X-CSRF-Token': csrfToken() };
    init.body = form;
  }
  let response: Response;
  try {
    response = await fetch(`/json${path}${query}`, init);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw unreachable();
  }
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new ApiError(response.status, 'BAD_RESPONSE', `The server answered ${response.status}`, {});
  }
  checkAnswer(response.status, body);
  return body as T;
}

const unreachable = (): ApiError => new ApiError(0, 'NETWORK', 'The server cannot be reached', {});

/** Throws the API's error unless the envelope says success; a 401 means the session ended. */
function checkAnswer(status: number, body: Record<string, unknown>): void {
  if (body['result'] === 'success' || body['result'] === 'partially_completed') return;
  if (status === 401) signedOutHandler?.();
  const code = typeof body['code'] === 'string' ? body['code'] : 'BAD_REQUEST';
  const msg = typeof body['msg'] === 'string' ? body['msg'] : `The server answered ${status}`;
  throw new ApiError(status, code, msg, body);
}

/**
 * POSTs one file as a multipart form (field `file`), with XMLHttpRequest because fetch
 * reports no upload progress: uploads and custom emoji.
 */
export function postFile(
  path: string,
  file: File,
  onProgress: (fraction: number) => void = () => undefined,
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/json${path}`);
    request.setRequestHeader('X-CSRF-Token', csrfToken());
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = (request.response ?? {}) as Record<string, unknown>;
      try {
        checkAnswer(request.status, body);
        resolve(body);
      } catch (error) {
        reject(error);
      }
    });
    request.addEventListener('error', () => reject(unreachable()));
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

export const api = {
  get: <T = Record<string, unknown>>(path: string, params?: Params, signal?: AbortSignal) => call<T>('GET', path, params, signal),
  post: <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('POST', path, params),
  patch: <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('PATCH', path, params),
  delete: <T = Record<string, unknown>>(path: string, params?: Params) => call<T>('DELETE', path, params),
};
