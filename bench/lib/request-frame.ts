import type { RequestFrame } from '../../src/wire/protocol';

/** A request frame as the front end builds one, with what a benchmark does not vary left empty. */
export function requestFrame(fields: Pick<RequestFrame, 'id' | 'realm' | 'route'> & Partial<RequestFrame>): RequestFrame {
  return {
    kind: 'request',
    pathParams: {},
    params: {},
    files: [],
    authorization: '',
    surface: 'api',
    sessionCookie: '',
    csrfToken: '',
    secure: false,
    userAgent: '',
    ...fields,
  };
}
