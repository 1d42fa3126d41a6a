/**
 * What a rendered message reports besides its HTML: who is mentioned, which code languages and
 * uploaded files it uses. Mentions inside quotes are made silent first: quoting someone does not
 * notify the people they mentioned (api-notes §g).
 */
import type { Token, Tokens } from 'marked';
import type { RenderState } from './render-state';
import { isToken } from './tokens';
import { walkTokens } from './token-tree';
import { uploadedFilePath } from './url';

export interface CollectedFacts {
  mentionedUserIds: number[];
  mentionedGroupIds: number[];
  wildcardMentioned: boolean;
  codeLanguages: string[];
  uploadedFilePaths: string[];
  /** Whether KaTeX output may appear (the sanitizer then admits MathML). */
  hasMath: boolean;
}

export function silenceQuotedMentions(tokens: readonly Token[]): void {
  walkTokens(tokens, (token, inQuote) => {
    if (inQuote && (isToken(token, 'userMention') || isToken(token, 'groupMention'))) token.silent = true;
  });
}

export function collectFacts(tokens: readonly Token[], state: RenderState): CollectedFacts {
  const userIds = new Set<number>();
  const groupIds = new Set<number>();
  const uploads = new Set<string>();
  const codeLanguages: string[] = [];
  let wildcardMentioned = false;
  let hasMath = false;
  walkTokens(tokens, (token) => {
    if (token.type === 'inlineTex' || token.type === 'mathBlock') hasMath = true;
    if (isToken(token, 'userMention') && !token.silent) {
      if (token.target.kind === 'user') userIds.add(token.target.userId);
      else wildcardMentioned = true;
    } else if (isToken(token, 'groupMention') && !token.silent) {
      groupIds.add(token.groupId);
      for (const member of state.groupById(token.groupId)?.members ?? []) userIds.add(member);
    } else if (isToken(token, 'fencedCode') && token.language !== null) {
      codeLanguages.push(token.language);
    } else if (token.type === 'link') {
      const path = uploadedFilePath((token as Tokens.Link).href, state.realmUrl);
      if (path !== null) uploads.add(path);
    }
  });
  return {
    mentionedUserIds: [...userIds],
    mentionedGroupIds: [...groupIds],
    wildcardMentioned,
    codeLanguages,
    uploadedFilePaths: [...uploads],
    hasMath,
  };
}
