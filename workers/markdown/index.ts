/**
 * The message Markdown renderer: the dialect of api-notes §g on top of marked, sanitized by
 * sanitize-html. Pure in (source, context): it reads nothing else and keeps nothing between
 * calls, so it can run in a worker pool and be re-run when linkifiers change.
 */
import { usersWithAlertWords } from './alert-words';
import { insertHighlightedCode } from './block-fences';
import { collectFacts, silenceQuotedMentions } from './collect';
import type { MarkdownContext, RenderResult } from './context';
import { lexDialect, renderDialectTokens } from './dialect';
import { addImagePreviews } from './image-previews';
import { findTopicLinks } from './linkifiers';
import { normalizeSource } from './preprocess';
import { RenderState, withRenderState } from './render-state';
import { sanitizeRenderedHtml } from './sanitize';

export type {
  MarkdownContext,
  MarkdownLinkifier,
  MarkdownRealmEmoji,
  MarkdownStream,
  MarkdownUser,
  MarkdownUserGroup,
  RenderResult,
} from './context';
export { emojiCodeForName } from './emoji';
/** Compiles realm linkifiers, dropping patterns the linear-time engine cannot run (usable as a check). */
export { compileLinkifiers, linkifierPatternProblem, MAX_LINKIFIER_PATTERN_LENGTH, type CompiledLinkifier } from './linkifiers';

export function renderMarkdown(source: string, ctx: MarkdownContext): RenderResult {
  const state = new RenderState(ctx);
  return withRenderState(state, () => {
    const tokens = lexDialect(normalizeSource(source));
    silenceQuotedMentions(tokens);
    addImagePreviews(tokens);
    const facts = collectFacts(tokens, state);
    const html = insertHighlightedCode(sanitizeRenderedHtml(renderDialectTokens(tokens).trim(), facts.hasMath), state.codeBlocks);
    return {
      html,
      // api-notes §g: a message is a /me message iff its raw content starts with "/me ".
      isMeMessage: source.startsWith('/me '),
      mentionedUserIds: facts.mentionedUserIds,
      mentionedGroupIds: facts.mentionedGroupIds,
      wildcardMentioned: facts.wildcardMentioned,
      alertWordUserIds: usersWithAlertWords(source, ctx.alertWords),
      codeLanguages: facts.codeLanguages,
      uploadedFilePaths: facts.uploadedFilePaths,
    };
  });
}

/** Linkifier matches and bare URLs in a topic: the message's `topic_links`. */
export function topicLinks(topic: string, ctx: MarkdownContext): { text: string; url: string }[] {
  return findTopicLinks(new RenderState(ctx).linkifiers, topic);
}
