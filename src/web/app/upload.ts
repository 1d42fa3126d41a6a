/** Uploads a file to POST /json/user_uploads, reporting progress; resolves to the file's URL. */
import { ApiError, postFile } from '../common/api';

export async function uploadFile(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const body = await postFile('/user_uploads', file, onProgress);
  const url = typeof body['url'] === 'string' ? body['url'] : body['uri'];
  if (typeof url !== 'string') throw new ApiError(200, 'BAD_RESPONSE', 'The upload answered no URL', body);
  return url;
}

/** The Markdown link an upload becomes; the server shows images inline. */
export function uploadLink(name: string, url: string): string {
  return `[${name.replace(/[[\]]/g, '')}](${url})`;
}
