import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { basicAuth } from './http';
import type { Credentials } from './server';

/** A response whose body stays bytes (file serving), with its headers. */
export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json(): Record<string, unknown>;
}

export interface RawRequest {
  method?: string;
  auth?: Credentials | null;
  host?: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** Any path of the server (root paths included), the body kept as bytes. */
export function rawRequest(baseUrl: string, path: string, options: RawRequest = {}): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers['Authorization'] = basicAuth(options.auth);
  if (options.host) headers['Host'] = options.host;
  if (options.body) headers['Content-Length'] = String(options.body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { hostname: url.hostname, port: url.port, method: options.method ?? 'GET', path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: () => JSON.parse(body.toString('utf8')) as Record<string, unknown>,
          });
        });
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart body built by hand: file parts and text fields, as the Python client sends them. */
export function multipartBody(files: FilePart[], fields: Record<string, string> = {}): { body: Buffer; contentType: string } {
  const boundary = 'teamchat-files-' + Math.random().toString(16).slice(2);
  const pieces: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST a hand-built multipart body to an API path. */
export async function postFiles(
  baseUrl: string,
  apiPath: string,
  auth: Credentials | null,
  files: FilePart[],
  host?: string,
): Promise<RawResponse> {
  const { body, contentType } = multipartBody(files);
  const options: RawRequest = { method: 'POST', auth, body, headers: { 'Content-Type': contentType } };
  if (host) options.host = host;
  return rawRequest(baseUrl, `/api/v1${apiPath}`, options);
}

/** The smallest valid PNG (1x1, transparent), for avatars and emoji. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** TINY_PNG as the one file of an upload, in form field `field`. */
export function pngUpload(field = 'file'): FilePart[] {
  return [{ field, filename: 'img.png', contentType: 'image/png', data: TINY_PNG }];
}

/** A solid-colour PNG of the given size, made with the image library the server resizes with. */
export function solidPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();
}

/** An image's format and size as decoded, to compare with `t.strictSame`. */
export async function decodedImage(
  bytes: Buffer,
): Promise<{ format: string | undefined; width: number | undefined; height: number | undefined }> {
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
}

/**
 * A PNG whose header claims `width` × `height` (its CRC made right) over a small image's data:
 * an image bomb, refused from the header before anything is decoded.
 */
export async function pngClaimingSize(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solidPng(2, 2));
  // Signature (8), IHDR length (4) and type (4), then width and height; the CRC covers type and data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}
