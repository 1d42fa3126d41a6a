/**
 * What a render needs to know about the realm, and what it reports back. Both shapes are the
 * public contract of this module (re-exported by index.ts).
 */

export interface MarkdownUser {
  id: number;
  full_name: string;
  email: string;
  is_active: boolean;
}

export interface MarkdownUserGroup {
  id: number;
  name: string;
  members: number[];
}

export interface MarkdownStream {
  id: number;
  name: string;
}

export interface MarkdownRealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
}

export interface MarkdownLinkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export interface MarkdownContext {
  /** e.g. "http://localhost:9991"; links into it are rewritten to "#narrow/..." (api-notes §g). */
  realmUrl: string;
  users: readonly MarkdownUser[];
  userGroups: readonly MarkdownUserGroup[];
  streams: readonly MarkdownStream[];
  realmEmoji: readonly MarkdownRealmEmoji[];
  linkifiers: readonly MarkdownLinkifier[];
  /** user id -> that user's alert words */
  alertWords?: ReadonlyMap<number, readonly string[]>;
  translateEmoticons?: boolean;
  /** The realm's `default_code_block_language`: a fence that names no language gets it ('' none). */
  defaultCodeBlockLanguage?: string;
}

export interface RenderResult {
  html: string;
  isMeMessage: boolean;
  /** Direct user mentions (not silent), plus members of mentioned (non-silent) groups. */
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  /** @**all** / @**everyone** / @**stream** / @**topic** */
  wildcardMentioned: boolean;
  /** Users whose alert words occur in the message. */
  alertWordUserIds: number[];
  /** Languages of fenced code blocks, as written. */
  codeLanguages: string[];
  /** "/user_uploads/..." paths referenced by links and images. */
  uploadedFilePaths: string[];
}
