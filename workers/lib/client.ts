import type { RequestFrame } from '../../src/wire/protocol';

/**
 * The client name recorded on a message: the `client` parameter when sent, else `website` for
 * the server's own page (its /json surface, as the public API's web app is named), else the
 * User-Agent's first product token.
 */
export function clientName(frame: Pick<RequestFrame, 'surface' | 'userAgent'>, requested?: string): string {
  // A `client` parameter, when sent, names the client (the public API's rule).
  const named = requested?.trim() ?? '';
  if (named !== '') return named.slice(0, 30);
  if (frame.surface === 'json') return 'website';
  const token = frame.userAgent.trim().split(/[/\s]/, 1)[0] ?? '';
  return token === '' ? 'API' : token.slice(0, 30);
}
