import { getParts } from 'uWebSockets.js';
import type { UploadedFile } from '../wire/protocol';

export interface RequestParams {
  params: Record<string, string>;
  files: UploadedFile[];
}

const textDecoder = new TextDecoder();

/**
 * Decodes the query string and the body into one parameter map (api-notes §b: every method
 * may carry parameters in either; the body wins). Bodies may be urlencoded or multipart
 * (zulip-js posts multipart); other content types carry no parameters.
 */
export function readParams(query: string, contentType: string, body: Buffer | null): RequestParams {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: UploadedFile[] = [];
  if (query) addSearchParams(params, query);
  if (body && body.length > 0) {
    const type = contentType.toLowerCase();
    if (type.startsWith('application/x-www-form-urlencoded')) {
      addSearchParams(params, body.toString('utf8'));
    } else if (type.startsWith('multipart/form-data')) {
      for (const part of getParts(body, contentType) ?? []) {
        if (part.filename !== undefined) {
          files.push({
            field: part.name,
            filename: part.filename,
            contentType: part.type ?? 'application/octet-stream',
            data: new Uint8Array(part.data.slice(0)),
          });
        } else {
          params[part.name] = textDecoder.decode(part.data);
        }
      }
    }
  }
  return { params, files };
}

function addSearchParams(target: Record<string, string>, text: string): void {
  // Repeated names: the last value wins, as in the public API's form parsing.
  for (const [key, value] of new URLSearchParams(text)) target[key] = value;
}
