import { renderMarkdown, topicLinks, type MarkdownContext, type RenderResult } from '../markdown';

/**
 * One render, as sent to a pool thread. The realm's context is large and changes rarely, so a
 * task carries it only when the thread asked for it: threads keep the last context of each
 * realm by version and answer `need_context` when theirs is missing or stale.
 */
export interface RenderTask {
  realm: string;
  version: number;
  context?: MarkdownContext;
  source: string;
  topic: string;
  translateEmoticons: boolean;
  /** The realm's default_code_block_language ('' none): a realm setting, not part of the cached context. */
  defaultCodeBlockLanguage: string;
}

export type RenderTaskResult =
  { kind: 'rendered'; result: RenderResult; topicLinks: { text: string; url: string }[] } | { kind: 'need_context' };

const contexts = new Map<string, { version: number; context: MarkdownContext }>();

/** Renders a message's content and topic; pure but for the context cache. */
export function renderTask(task: RenderTask): RenderTaskResult {
  if (task.context) contexts.set(task.realm, { version: task.version, context: task.context });
  const cached = contexts.get(task.realm);
  if (!cached || cached.version !== task.version) return { kind: 'need_context' };
  const context =
    task.translateEmoticons || task.defaultCodeBlockLanguage !== ''
      ? { ...cached.context, translateEmoticons: task.translateEmoticons, defaultCodeBlockLanguage: task.defaultCodeBlockLanguage }
      : cached.context;
  return {
    kind: 'rendered',
    result: renderMarkdown(task.source, context),
    topicLinks: task.topic === '' ? [] : topicLinks(task.topic, context),
  };
}
