/**
 * Per-render state. The marked instance is built once per module, so a render publishes its
 * context here for the tokenizers to read, and withdraws it when done; nothing survives a call.
 */
import type { MarkdownContext, MarkdownRealmEmoji, MarkdownStream, MarkdownUser, MarkdownUserGroup } from './context';
import { compileLinkifiers, RenderLinkifiers } from './linkifiers';

/** A rendered code block's escaped text, and its token spans if its language is highlighted. */
export interface RenderedCode {
  plain: string;
  highlighted: string | undefined;
}

export class RenderState {
  /** How many containers (quotes, spoilers, list items) enclose the block being lexed. */
  blockDepth = 0;

  /** How many spoilers enclose the block being lexed: fences inside them get no default language. */
  spoilerDepth = 0;

  /** Every code block, in document order; they are written plain, and spans put in after sanitizing. */
  readonly codeBlocks: RenderedCode[] = [];

  private streamsByName: Map<string, MarkdownStream> | undefined;
  private activeRealmEmoji: Map<string, MarkdownRealmEmoji> | undefined;
  private renderLinkifiers: RenderLinkifiers | undefined;

  constructor(readonly context: MarkdownContext) {}

  get realmUrl(): string {
    return this.context.realmUrl;
  }

  get translateEmoticons(): boolean {
    return this.context.translateEmoticons === true;
  }

  /**
   * The language a fence that names none is read as: the realm's default, except inside a
   * spoiler, where the public server applies none.
   */
  get fenceDefaultLanguage(): string | undefined {
    const language = this.context.defaultCodeBlockLanguage;
    return language === undefined || language === '' || this.spoilerDepth > 0 ? undefined : language;
  }

  // Users and groups are looked up by scanning: a message mentions few of them, and building an
  // index of a large realm's users for every render costs more than a few scans.

  /** Only active users can be mentioned; names match case-insensitively, the first user wins. */
  userByName(name: string): MarkdownUser | undefined {
    const wanted = name.toLowerCase();
    return this.context.users.find((user) => user.is_active && user.full_name.toLowerCase() === wanted);
  }

  userById(id: number): MarkdownUser | undefined {
    return this.context.users.find((user) => user.is_active && user.id === id);
  }

  groupByName(name: string): MarkdownUserGroup | undefined {
    const wanted = name.toLowerCase();
    return this.context.userGroups.find((group) => group.name.toLowerCase() === wanted);
  }

  groupById(id: number): MarkdownUserGroup | undefined {
    return this.context.userGroups.find((group) => group.id === id);
  }

  streamByName(name: string): MarkdownStream | undefined {
    if (this.streamsByName === undefined) {
      this.streamsByName = new Map();
      for (const stream of this.context.streams) {
        if (!this.streamsByName.has(stream.name)) this.streamsByName.set(stream.name, stream);
      }
    }
    return this.streamsByName.get(name);
  }

  realmEmoji(name: string): MarkdownRealmEmoji | undefined {
    if (this.activeRealmEmoji === undefined) {
      this.activeRealmEmoji = new Map();
      for (const emoji of this.context.realmEmoji) {
        if (!emoji.deactivated) this.activeRealmEmoji.set(emoji.name, emoji);
      }
    }
    return this.activeRealmEmoji.get(name);
  }

  get linkifiers(): RenderLinkifiers {
    this.renderLinkifiers ??= new RenderLinkifiers(compileLinkifiers(this.context.linkifiers));
    return this.renderLinkifiers;
  }
}

let current: RenderState | undefined;

/** The state of the render in progress; tokenizers call this, never outside a render. */
export function activeRenderState(): RenderState {
  if (current === undefined) throw new Error('markdown tokenizer used outside renderMarkdown');
  return current;
}

export function withRenderState<T>(state: RenderState, run: () => T): T {
  const previous = current;
  current = state;
  try {
    return run();
  } finally {
    current = previous;
  }
}
