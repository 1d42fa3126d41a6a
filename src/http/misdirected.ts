import type { RealmVerdict } from '../realm/placement';
import { jsonError } from './write-response';

// A move takes seconds (a snapshot and a copy); clients try again after this long.
const MOVING_RETRY_AFTER_S = 5;

export interface Refusal {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * The answer for a realm this process does not serve (README "Scaling out"): 421 Misdirected
 * Request (RFC 9110 §15.5.20) when another process serves it, 503 while it moves between
 * processes, and the API's 404 for a realm no process serves. Null: the realm is served here.
 */
export function placementRefusal(verdict: RealmVerdict, realm: string): Refusal | null {
  switch (verdict) {
    case 'served':
      return null;
    case 'elsewhere':
      return {
        status: 421,
        body: jsonError(`The organization '${realm}' is served by another server process`, { code: 'MISDIRECTED_REQUEST' }),
        headers: {},
      };
    case 'moving':
      return {
        status: 503,
        body: jsonError(`The organization '${realm}' is moving to another server process; try again in a moment`, {
          code: 'REALM_MOVING',
        }),
        headers: { 'Retry-After': String(MOVING_RETRY_AFTER_S) },
      };
    case 'nowhere':
      // The public server's text for a host that maps to no organization (InvalidSubdomainError).
      return { status: 404, body: jsonError('Invalid subdomain', { code: 'NONEXISTENT_SUBDOMAIN' }), headers: {} };
  }
}
