import { BinaryReply } from './binary-reply';
import { errors } from './errors';

/** Types a browser may show inline; anything else is a download (api-notes POST /user_uploads). */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'video/mp4',
  'video/webm',
]);

// Uploaded bytes are never run: no scripts, no plugins, no framing by other origins.
const FILE_SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; media-src 'self'; sandbox",
};

export interface StoredFile {
  name: string;
  contentType: string;
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Uint8Array;
}

/**
 * Answers a file request: 200 with the whole file, or one range (RFC 9110 §14): 206 with
 * Content-Range, 416 when it lies past the end. Unparsable or multi-range headers get the whole
 * file, as the RFC allows.
 */
export function fileReply(file: StoredFile, rangeHeader: string | undefined, cacheControl = 'private, max-age=86400'): BinaryReply {
  const type = file.contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const inline = INLINE_TYPES.has(type);
  const headers: Record<string, string> = {
    ...FILE_SECURITY_HEADERS,
    'Accept-Ranges': 'bytes',
    'Cache-Control': cacheControl,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  };
  const contentType = inline ? type : file.contentType || 'application/octet-stream';
  const range = rangeHeader ? parseRange(rangeHeader, file.size) : null;
  if (range === 'unsatisfiable') throw errors.rangeNotSatisfiable(file.size);
  if (range === null) return new BinaryReply(200, contentType, file.read(0, file.size), headers);
  headers['Content-Range'] = `bytes ${range.start}-${range.end - 1}/${file.size}`;
  return new BinaryReply(206, contentType, file.read(range.start, range.end), headers);
}

/** One `bytes=` range as [start, end), null to ignore the header, or unsatisfiable. */
function parseRange(header: string, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(first);
  const end = last === '' ? size : Math.min(Number(last) + 1, size);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** An avatar or emoji image (small, one blob) as a file answer. */
export function imageReply(name: string, image: { content_type: string; data: Buffer }, range: string | undefined): BinaryReply {
  const { data } = image;
  return fileReply(
    { name, contentType: image.content_type, size: data.length, read: (start, end) => data.subarray(start, end) },
    range,
    // The URLs carry the version (avatars) or a new file name (emoji): safe to cache long.
    'public, max-age=31536000',
  );
}
