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

/**
 * Consecutive rules of a state joined into one alternation (`(r1)|(r2)|…`), which the regular
 * expression engine tries in order as the rules are, in one call instead of one per rule.
 * `groupOf[i]` is the capture group holding rule i's match; its own groups follow it.
 */
interface RuleGroup {
  readonly pattern: RegExp;
  readonly rules: readonly Rule[];
  readonly groupOf: readonly number[];
}

function captureGroupCount(pattern: RegExp): number {
  return (new RegExp(`${pattern.source}|`, pattern.flags.replace('y', '')).exec('')?.length ?? 1) - 1;
}

/** `source` with its capture groups made non-capturing (it has no back-references). */
function withoutCaptures(source: string): string {
  let result = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i] ?? '';
    if (char === '\\') {
      result += source.slice(i, i + 2);
      i++;
      continue;
    }
    if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(' && source[i + 1] !== '?') {
      result += '(?:';
      continue;
    }
    result += char;
  }
  return result;
}

function joinRules(rules: readonly Rule[]): RuleGroup {
  if (rules.length === 1 && rules[0] !== undefined) return { pattern: rules[0].pattern, rules, groupOf: [0] };
  const groupOf: number[] = [];
  let group = 1;
  // Only rules that emit per group keep their groups: fewer captures, smaller match arrays.
  const sources = rules.map(({ pattern, action }) => (isGroupActions(action) ? pattern.source : withoutCaptures(pattern.source)));
  rules.forEach(({ pattern, action }) => {
    groupOf.push(group);
    group += 1 + (isGroupActions(action) ? captureGroupCount(pattern) : 0);
  });
  const source = sources.map((ruleSource) => `(${ruleSource})`).join('|');
  return { pattern: new RegExp(source, rules[0]?.pattern.flags ?? 'my'), rules, groupOf };
}

const BACK_REFERENCE = /\\[1-9]/;
const ruleGroupsByState = new WeakMap<readonly Rule[], readonly RuleGroup[]>();

/** A state's rules as groups of neighbours with the same flags; a rule with back-references stays alone. */
function ruleGroupsOf(rules: readonly Rule[]): readonly RuleGroup[] {
  let groups = ruleGroupsByState.get(rules);
  if (groups !== undefined) return groups;
  const runs: Rule[][] = [];
  for (const rule of rules) {
    const last = runs[runs.length - 1];
    const joinable = !BACK_REFERENCE.test(rule.pattern.source);
    const first = last?.[0];
    if (
      last !== undefined &&
      first !== undefined &&
      joinable &&
      !BACK_REFERENCE.test(first.pattern.source) &&
      first.pattern.flags === rule.pattern.flags
    ) {
      last.push(rule);
    } else runs.push([rule]);
  }
  groups = runs.map(joinRules);
  ruleGroupsByState.set(rules, groups);
  return groups;
}

interface Lexing {
  readonly sink: TokenSink;
  readonly text: string;
  readonly lexer: LexerDefinition;
  readonly stack: string[];
  position: number;
  zeroWidthSteps: number;
}

/** Applies `rule`'s match (whole match in `match[group]`, its groups after it); false if it is to be passed over. */
function applyRule(lexing: Lexing, rule: Rule, match: RegExpExecArray, group: number): boolean {
  const whole = match[group] ?? '';
  const { action, next } = rule;
  if (whole === '') {
    // A zero-width match only counts as a state change.
    if (next === undefined || lexing.zeroWidthSteps >= MAX_ZERO_WIDTH_STEPS) return false;
    lexing.zeroWidthSteps++;
  } else lexing.zeroWidthSteps = 0;
  if (isGroupActions(action)) {
    // Groups tile the match in order (every table's grouped patterns are written so).
    action.forEach((groupAction, index) => emitAction(lexing.sink, groupAction, match[group + 1 + index] ?? '', lexing.lexer));
  } else emitAction(lexing.sink, action, whole, lexing.lexer);
  lexing.position += whole.length;
  if (next !== undefined) applyTransition(lexing.stack, next);
  return true;
}

/** Tries `rules` one by one from `from` (after a joined match had to be passed over). */
function applyFirstMatchingRule(lexing: Lexing, rules: readonly Rule[], from: number): boolean {
  for (const rule of rules.slice(from)) {
    rule.pattern.lastIndex = lexing.position;
    const match = rule.pattern.exec(lexing.text);
    if (match !== null && applyRule(lexing, rule, match, 0)) return true;
  }
  return false;
}

function applyRuleGroup(lexing: Lexing, { pattern, rules, groupOf }: RuleGroup): boolean {
  pattern.lastIndex = lexing.position;
  const match = pattern.exec(lexing.text);
  if (match === null) return false;
  const index = groupOf.findIndex((group) => match[group] !== undefined);
  const rule = rules[index];
  if (rule === undefined) return false;
  return applyRule(lexing, rule, match, groupOf[index] ?? 0) || applyFirstMatchingRule(lexing, rules, index + 1);
}

function tokenizeInto(sink: TokenSink, text: string, lexer: LexerDefinition): void {
  const lexing: Lexing = { sink, text, lexer, stack: [...(lexer.initial ?? ['root'])], position: 0, zeroWidthSteps: 0 };
  const { stack } = lexing;
  while (lexing.position < text.length) {
    const rules = lexer.states[stack[stack.length - 1] ?? 'root'] ?? [];
    if (ruleGroupsOf(rules).some((group) => applyRuleGroup(lexing, group))) continue;
    lexing.zeroWidthSteps = 0;
    // Nothing matched: a newline starts over from the initial states; any other character is an error.
    if (text[lexing.position] === '\n') {
      stack.length = 0;
      stack.push(...(lexer.initial ?? ['root']));
      emit(sink, '', '\n');
    } else emit(sink, 'err', text[lexing.position] ?? '');
    lexing.position++;
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
    else if (!escaped.includes('\n')) html += `<span class="${tokenClass}">${escaped}</span>`;
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
