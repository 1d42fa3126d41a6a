import { createHmac, randomBytes } from 'node:crypto';
import { secretsEqual } from './secrets';

// One secret per shard thread: a realm is served by one shard, and a token that outlives a
// shard restart only has to be asked for again (it is valid for a minute or so).
const SECRET = randomBytes(32);

function sign(payload: string): string {
  return createHmac('sha256', SECRET).update(payload).digest('base64url');
}

/** A token naming `subject` until `expiresMs` (GET /api/v1/user_uploads/... temporary URLs). */
export function issueToken(subject: string, expiresMs: number): string {
  const payload = Buffer.from(JSON.stringify([subject, expiresMs])).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

/** The subject of a valid, unexpired token; null otherwise. */
export function verifyToken(token: string, nowMs: number): string | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const payload = token.slice(0, dot);
  if (!secretsEqual(token.slice(dot + 1), sign(payload))) return null;
  try {
    const [subject, expiresMs] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof subject !== 'string' || typeof expiresMs !== 'number' || expiresMs < nowMs) return null;
    return subject;
  } catch {
    return null;
  }
}
