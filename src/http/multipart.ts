import type { FileRange } from '../wire/protocol';

export interface MultipartParts {
  fields: [string, string][];
  /** File parts as ranges of the body, so the bytes are never copied out of it. */
  files: FileRange[];
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const textDecoder = new TextDecoder();

/**
 * Splits a multipart/form-data body (RFC 7578) into text fields and file ranges. A part with a
 * `filename` in its Content-Disposition is a file, as browsers, zulip-js and the Python client
 * send them. Returns null when the content type carries no boundary.
 */
export function scanMultipart(body: Buffer, contentType: string): MultipartParts | null {
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundaryText = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!boundaryText) return null;
  const delimiter = Buffer.from(`--${boundaryText}`);
  // Every delimiter but the first starts a line of its own.
  const partEnd = Buffer.from(`\r\n--${boundaryText}`);
  const parts: MultipartParts = { fields: [], files: [] };
  let cursor = body.indexOf(delimiter);
  while (cursor !== -1) {
    const afterDelimiter = cursor + delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[afterDelimiter] === 0x2d && body[afterDelimiter + 1] === 0x2d) break;
    const headerEnd = body.indexOf(CRLF_CRLF, afterDelimiter);
    if (headerEnd === -1) break;
    const dataStart = headerEnd + CRLF_CRLF.length;
    const next = body.indexOf(partEnd, dataStart);
    if (next === -1) break;
    const headers = body.toString('latin1', afterDelimiter, headerEnd);
    addPart(parts, headers, body, dataStart, next);
    cursor = next + 2;
  }
  return parts;
}

function addPart(parts: MultipartParts, rawHeaders: string, body: Buffer, start: number, end: number): void {
  const disposition = /content-disposition:([^\r\n]*)/i.exec(rawHeaders)?.[1] ?? '';
  const name = dispositionParam(disposition, 'name');
  if (name === null) return;
  const filename = dispositionParam(disposition, 'filename');
  if (filename === null) {
    parts.fields.push([name, textDecoder.decode(body.subarray(start, end))]);
    return;
  }
  const contentType = /content-type:\s*([^\r\n]*)/i.exec(rawHeaders)?.[1]?.trim() || 'application/octet-stream';
  parts.files.push({ field: name, filename, contentType, offset: body.byteOffset + start, length: end - start });
}

// Quoted (with backslash escapes) or bare parameter values, compiled once: every multipart
// request (zulip-js sends nothing else) crosses this on the front-end thread.
const PARAM_PATTERNS = {
  name: [/(?:^|;)\s*name="((?:[^"\\]|\\.)*)"/i, /(?:^|;)\s*name=([^;\s]*)/i],
  filename: [/(?:^|;)\s*filename="((?:[^"\\]|\\.)*)"/i, /(?:^|;)\s*filename=([^;\s]*)/i],
} as const;

/** A Content-Disposition parameter; header bytes were read as latin1, names are UTF-8. */
function dispositionParam(disposition: string, key: keyof typeof PARAM_PATTERNS): string | null {
  const [quoted, bare] = PARAM_PATTERNS[key];
  const match = quoted.exec(disposition) ?? bare.exec(disposition);
  if (match?.[1] === undefined) return null;
  return Buffer.from(match[1].replace(/\\(.)/g, '$1'), 'latin1').toString('utf8');
}
