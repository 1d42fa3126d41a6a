import { createHash, randomBytes, scrypt, timingSafeEqual, type BinaryLike } from 'node:crypto';

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_LENGTH = 32;

/** 32 random alphanumerics; rejection sampling keeps every character equally likely. */
export function generateApiKey(length = API_KEY_LENGTH): string {
  const limit = 256 - (256 % KEY_ALPHABET.length);
  let key = '';
  while (key.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= limit) continue;
      key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
      if (key.length === length) break;
    }
  }
  return key;
}

/** Compares secrets in time that does not depend on where they differ. */
export function secretsEqual(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  // Compare against itself on a length mismatch so the timing stays the same.
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

// scrypt parameters (RFC 7914 interactive-login recommendation, N=2^15, r=8, p=1).
const SCRYPT = { N: 1 << 15, r: 8, p: 1, keyLength: 32, maxmem: 64 * 1024 * 1024 };

function scryptAsync(password: BinaryLike, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, { N, r, p, maxmem: SCRYPT.maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), hash.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p), expected.length);
  return timingSafeEqual(actual, expected);
}

/** A session token or CSRF token: 32 random bytes, URL- and cookie-safe. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How a session token is stored and looked up: its SHA-256, in hex. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
