/**
 * Uploads a file to POST /json/user_uploads with XMLHttpRequest (fetch reports no upload
 * progress), with the CSRF header the session requires. Resolves to the file's URL.
 */
import { ApiError, csrfToken } from '../shared/api';

export function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/json/user_uploads');
    request.setRequestHeader('X-CSRF-Token', csrfToken());
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = (request.response ?? {}) as Record<string, unknown>;
      const url = typeof body['url'] === 'string' ? body['url'] : body['uri'];
      if (request.status === 200 && typeof url === 'string') resolve(url);
      else reject(new ApiError(request.status, typeof body['code'] === 'string' ? body['code'] : 'BAD_REQUEST', typeof body['msg'] === 'string' ? body['msg'] : 'The upload failed', body));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'NETWORK', 'The server cannot be reached', {})));
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}

/** The Markdown link an upload becomes; the server shows images inline. */
export function uploadLink(name: string, url: string): string {
  return `[${name.replace(/[[\]]/g, '')}](${url})`;
}
