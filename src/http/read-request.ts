import type { FileRange } from '../wire/protocol';
import { scanMultipart } from './multipart';

export interface RequestParams {
  params: Record<string, string>;
  /** File parts, as ranges of the body (which travels to the shard with them). */
  fileRanges: FileRange[];
}

/**
 * Decodes the query string and the body into one parameter map (api-notes §b: every method
 * may carry parameters in either; the body wins). Bodies may be urlencoded or multipart
 * (zulip-js posts multipart); other content types carry no parameters.
 */
export function readParams(query: string, contentType: string, body: Buffer | null): RequestParams {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const fileRanges: FileRange[] = [];
  if (query) addSearchParams(params, query);
  if (body && body.length > 0) {
    const type = contentType.toLowerCase();
    if (type.startsWith('application/x-www-form-urlencoded')) {
      addSearchParams(params, body.toString('utf8'));
    } else if (type.startsWith('multipart/form-data')) {
      const parts = scanMultipart(body, contentType);
      for (const [name, value] of parts?.fields ?? []) params[name] = value;
      fileRanges.push(...(parts?.files ?? []));
    }
  }
  return { params, fileRanges };
}

/**
 * application/x-www-form-urlencoded (WHATWG URL §5.1), as URLSearchParams reads it, without its
 * entry list: a pair with `+` or `%` is decoded with decodeURIComponent, and only a pair that
 * does not decode that way (a stray `%`, bytes that are not UTF-8) goes to URLSearchParams.
 */
function addSearchParams(target: Record<string, string>, text: string): void {
  let start = text.startsWith('?') ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    if (end > start) {
      const pair = text.slice(start, end);
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      // Repeated names: the last value wins, as in the public API's form parsing.
      const decodedName = decodeFormPart(name);
      const decodedValue = decodeFormPart(value);
      if (decodedName === undefined || decodedValue === undefined) {
        // After '&', so that a leading '?' of the pair is not taken for the query's own.
        for (const [key, decoded] of new URLSearchParams('&' + pair)) target[key] = decoded;
      } else {
        target[decodedName] = decodedValue;
      }
    }
    start = end + 1;
  }
}

function decodeFormPart(part: string): string | undefined {
  const plus = part.includes('+');
  if (!plus && !part.includes('%')) return part;
  try {
    return decodeURIComponent(plus ? part.replaceAll('+', ' ') : part);
  } catch {
    return undefined;
  }
}

/** One cookie's value from a Cookie header (RFC 6265 §5.4: `name=value` pairs joined by "; "). */
export function cookieValue(header: string, name: string): string {
  if (header === '') return '';
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    return pair.slice(eq + 1).trim();
  }
  return '';
}
