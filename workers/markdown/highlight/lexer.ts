/**
 * A state-machine tokenizer shaped like the reference server's highlighter (api-notes §g: code
 * blocks carry its token classes): each state is an ordered list of rules; at every position the
 * first rule whose pattern matches there wins, emits its token class(es) and may push or pop
 * states. Rule tables live in ./languages; the classes are the highlighter's short CSS names
 * (`k` keyword, `nf` function name, `p` punctuation, `s2` double-quoted string, …).
 */
import { escapeCodeBlock } from '../escape';

/** A short CSS class name, or '' for plain text (which gets no span). */
export type TokenClass = string;

/** The matched text tokenized by another lexer (or this one) from its initial states. */
export interface Using {
  readonly using: LexerDefinition | 'this';
}

/** What a match emits: one class, a sub-lexer, or either per capture group (the groups tile the match). */
export type RuleAction = TokenClass | Using | readonly (TokenClass | Using)[];

/** A state name to push, `#pop`, `#pop:N`, or several states to push in order. */
export type Transition = string | readonly string[];

export interface Rule {
  readonly pattern: RegExp;
  readonly action: RuleAction;
  readonly next: Transition | undefined;
}

export interface LexerDefinition {
  readonly states: Readonly<Record<string, readonly Rule[]>>;
  /** The states the lexer starts in (default `['root']`). */
  readonly initial?: readonly string[];
}

/**
 * One rule. Patterns are matched at the current position only (sticky); `^` and `$` are line
 * anchors and `.` stops at newlines, as in the reference highlighter's patterns.
 */
export function rule(pattern: RegExp | string, action: RuleAction, next?: Transition): Rule {
  const source = typeof pattern === 'string' ? pattern : pattern.source;
  const flags = typeof pattern === 'string' ? '' : pattern.flags.replace(/[gmy]/g, '');
  return { pattern: new RegExp(source, `${flags}my`), action, next };
}

/** A rule matching nothing that only changes state (used as a state's fallback). */
export function fallback(next: Transition): Rule {
  return rule('', '', next);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An alternation of literal words, longest first so none shadows a longer one. */
export function words(list: readonly string[], prefix = '', suffix = '\\b'): string {
  const sorted = [...list].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return `${prefix}(?:${sorted.join('|')})${suffix}`;
}

/** Input start only (the reference's `\A`), for shebang lines. */
export const INPUT_START = '(?<![\\s\\S])';

interface TokenSink {
  classes: TokenClass[];
  texts: string[];
}

function emit(sink: TokenSink, tokenClass: TokenClass, text: string): void {
  if (text === '') return;
  const last = sink.classes.length - 1;
  // Neighbouring tokens of one class are written as one span, as the reference's formatter does.
  if (last >= 0 && sink.classes[last] === tokenClass) sink.texts[last] += text;
  else {
    sink.classes.push(tokenClass);
    sink.texts.push(text);
  }
}

function applyTransition(stack: string[], next: Transition): void {
  for (const step of typeof next === 'string' ? [next] : next) {
    if (step.startsWith('#pop')) {
      const count = step === '#pop' ? 1 : Number(step.slice('#pop:'.length));
      // The bottom state is never popped.
      stack.length = Math.max(1, stack.length - count);
    } else stack.push(step);
  }
}

function isGroupActions(action: RuleAction): action is readonly (TokenClass | Using)[] {
  return Array.isArray(action);
}

function emitAction(sink: TokenSink, action: TokenClass | Using, text: string, lexer: LexerDefinition): void {
  if (typeof action === 'string') emit(sink, action, text);
  else if (text !== '') tokenizeInto(sink, text, action.using === 'this' ? lexer : action.using);
}

/** Zero-width state changes in a row at one position before the position is given up on. */
const MAX_ZERO_WIDTH_STEPS = 32;

function tokenizeInto(sink: TokenSink, text: string, lexer: LexerDefinition): void {
  const stack = [...(lexer.initial ?? ['root'])];
  let position = 0;
  let zeroWidthSteps = 0;
  while (position < text.length) {
    const rules = lexer.states[stack[stack.length - 1] ?? 'root'] ?? [];
    let matched = false;
    for (const { pattern, action, next } of rules) {
      pattern.lastIndex = position;
      const match = pattern.exec(text);
      if (match === null) continue;
      const whole = match[0];
      if (whole === '') {
        if (next === undefined || zeroWidthSteps >= MAX_ZERO_WIDTH_STEPS) continue;
        zeroWidthSteps++;
      } else zeroWidthSteps = 0;
      if (isGroupActions(action)) {
        // Groups tile the match in order (every table's grouped patterns are written so).
        action.forEach((groupAction, index) => emitAction(sink, groupAction, match[index + 1] ?? '', lexer));
      } else emitAction(sink, action, whole, lexer);
      position += whole.length;
      if (next !== undefined) applyTransition(stack, next);
      matched = true;
      break;
    }
    if (matched) continue;
    zeroWidthSteps = 0;
    // Nothing matched: a newline starts over from the initial states; any other character is an error.
    if (text[position] === '\n') {
      stack.length = 0;
      stack.push(...(lexer.initial ?? ['root']));
      emit(sink, '', '\n');
    } else emit(sink, 'err', text[position] ?? '');
    position++;
  }
}

/**
 * The highlighted HTML of `text` (which ends with a newline): escaped as the plain code block is,
 * each token in `<span class="…">`, a token spanning lines split at each newline.
 */
export function highlightToHtml(text: string, lexer: LexerDefinition): string {
  const sink: TokenSink = { classes: [], texts: [] };
  tokenizeInto(sink, text, lexer);
  let html = '';
  sink.classes.forEach((tokenClass, index) => {
    const escaped = escapeCodeBlock(sink.texts[index] ?? '');
    if (tokenClass === '') html += escaped;
    else html += escaped.replace(/[^\n]+/g, (line) => `<span class="${tokenClass}">${line}</span>`);
  });
  return html;
}

/** Every class a lexer can emit, for the sanitizer's allow-list. */
export function tokenClassesOf(lexer: LexerDefinition): Set<string> {
  const classes = new Set<string>(['err']);
  for (const rules of Object.values(lexer.states)) {
    for (const { action } of rules) {
      const emitted = isGroupActions(action) ? action : [action];
      for (const tokenClass of emitted) {
        if (typeof tokenClass === 'string') for (const name of tokenClass.split(' ')) if (name !== '') classes.add(name);
      }
    }
  }
  return classes;
}
