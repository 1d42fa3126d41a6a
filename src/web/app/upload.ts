/** Uploads a file to POST /json/user_uploads, reporting progress; resolves to the file's URL. */
import { ApiError, postFile } from '../common/api';
import { sameConversation, type DraftConversation, type Drafts } from '../state/drafts';

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

/** `text` with `line` added on a line of its own. */
export function withLine(text: string, line: string): string {
  return text === '' || text.endsWith('\n') ? `${text}${line}\n` : `${text}\n${line}\n`;
}

/** What an upload needs of the compose box. */
export interface ComposeBox {
  /** The conversation the box shows now. */
  shown(): DraftConversation;
  /** Changes the box's text (and with it the shown conversation's draft). */
  edit(change: (text: string) => string): void;
  drafts: Drafts | null;
}

/**
 * Uploads `file` and links it in `conversation`, the one the box showed when the upload
 * started: in the box if it still shows that conversation, else in that conversation's draft,
 * where the person finds it on going back (the box may show another one by the time it ends).
 */
export async function uploadInto(
  box: ComposeBox,
  conversation: DraftConversation,
  file: File,
  onProgress: (fraction: number) => void,
  upload: typeof uploadFile = uploadFile,
): Promise<void> {
  const link = uploadLink(file.name, await upload(file, onProgress));
  if (sameConversation(box.shown(), conversation)) box.edit((text) => withLine(text, link));
  else box.drafts?.save(conversation, withLine(box.drafts.load(conversation), link));
}
