import type { RequestFrame } from '../../src/wire/protocol';

/**
 * The client name recorded on a message: `website` for the server's own page (its /json
 * surface, as the public API's web app is named), else the User-Agent's first product token.
 */
export function clientName(frame: Pick<RequestFrame, 'surface' | 'userAgent'>): string {
  if (frame.surface === 'json') return 'website';
  const token = frame.userAgent.trim().split(/[/\s]/, 1)[0] ?? '';
  return token === '' ? 'API' : token.slice(0, 30);
}
