import { errors } from './errors';
import { MAX_RECIPIENTS } from './recipients';

/**
 * Narrow terms (api-notes §c): parsed and checked for shape here, once; names are resolved
 * against the realm in queries/narrow-resolve.ts. Both wire forms are accepted: objects
 * `{operator, operand, negated?}` and legacy `[operator, operand]` pairs.
 */

export const IS_OPERANDS = ['dm', 'starred', 'mentioned', 'alerted', 'unread', 'resolved', 'followed'] as const;
export const HAS_OPERANDS = ['link', 'image', 'attachment'] as const;
export const STREAMS_OPERANDS = ['public', 'web-public'] as const;
export const IN_OPERANDS = ['home', 'all'] as const;

export type IsOperand = (typeof IS_OPERANDS)[number];
export type HasOperand = (typeof HAS_OPERANDS)[number];

/** A user or stream named by ID or by email / name. */
export type Reference = number | string;

export type NarrowTerm = { negated: boolean } & (
  | { operator: 'stream'; operand: Reference }
  | { operator: 'streams'; operand: (typeof STREAMS_OPERANDS)[number] }
  | { operator: 'topic'; operand: string }
  | { operator: 'sender'; operand: Reference }
  | { operator: 'dm'; operand: Reference[] }
  | { operator: 'dm-including'; operand: Reference }
  | { operator: 'group-pm-with'; operand: Reference }
  | { operator: 'is'; operand: IsOperand }
  | { operator: 'has'; operand: HasOperand }
  | { operator: 'in'; operand: (typeof IN_OPERANDS)[number] }
  | { operator: 'id'; operand: number }
  | { operator: 'near'; operand: number }
  | { operator: 'with'; operand: number }
  | { operator: 'search'; operand: string }
);

// Deprecated spellings (SPEC §Versioning, feature level 177) and the legacy underscore forms.
export const OPERATOR_ALIASES: Readonly<Record<string, NarrowTerm['operator']>> = {
  stream: 'stream',
  channel: 'stream',
  streams: 'streams',
  channels: 'streams',
  topic: 'topic',
  subject: 'topic',
  sender: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  pm_with: 'dm',
  'dm-including': 'dm-including',
  'group-pm-with': 'group-pm-with',
  group_pm_with: 'group-pm-with',
  is: 'is',
  has: 'has',
  in: 'in',
  id: 'id',
  near: 'near',
  with: 'with',
  search: 'search',
};

// `is:private` is the deprecated name of `is:dm` (feature level 177).
export const IS_ALIASES: Readonly<Record<string, IsOperand>> = { private: 'dm' };

/**
 * Most terms a narrow may hold: each becomes a condition of one SQL statement, whose expression
 * tree SQLite bounds (1000 search or 10,000 stream terms made it fail).
 */
export const MAX_NARROW_TERMS = 100;

/** Decodes the JSON-decoded `narrow` parameter into typed terms, or throws BAD_NARROW. */
export function parseNarrow(raw: readonly unknown[]): NarrowTerm[] {
  return raw.map(parseTerm);
}

function parseTerm(element: unknown): NarrowTerm {
  let operator: unknown;
  let operand: unknown;
  let negated: unknown = false;
  if (Array.isArray(element)) {
    if (element.length !== 2) throw errors.badNarrow('a legacy term has two elements');
    [operator, operand] = element as unknown[];
  } else if (typeof element === 'object' && element !== null) {
    const record = element as Record<string, unknown>;
    operator = record['operator'];
    operand = record['operand'];
    negated = record['negated'] ?? false;
  } else {
    throw errors.badNarrow('a term must be an object or a pair');
  }
  if (typeof operator !== 'string') throw errors.badNarrow('operator is not a string');
  if (typeof negated !== 'boolean') throw errors.badNarrow('negated is not a boolean');
  const canonical = OPERATOR_ALIASES[operator];
  if (!canonical) throw errors.badNarrow(`unknown operator ${operator}`);
  return { negated, ...parseOperand(canonical, operand) } as NarrowTerm;
}

type TermBody = Omit<NarrowTerm, 'negated'>;

function parseOperand(operator: NarrowTerm['operator'], operand: unknown): TermBody {
  switch (operator) {
    case 'stream':
    case 'sender':
    case 'dm-including':
    case 'group-pm-with':
      return { operator, operand: reference(operator, operand) };
    case 'dm':
      return { operator, operand: dmOperand(operand) };
    case 'topic':
      return { operator, operand: text(operator, operand) };
    case 'search': {
      const query = text(operator, operand);
      if (query.trim() === '') throw errors.badNarrow('empty search');
      return { operator, operand: query };
    }
    case 'streams':
      return { operator, operand: oneOf(operator, operand, STREAMS_OPERANDS) };
    case 'is': {
      const name = typeof operand === 'string' ? (IS_ALIASES[operand] ?? operand) : operand;
      return { operator, operand: oneOf(operator, name, IS_OPERANDS) };
    }
    case 'has':
      return { operator, operand: oneOf(operator, operand, HAS_OPERANDS) };
    case 'in':
      return { operator, operand: oneOf(operator, operand, IN_OPERANDS) };
    case 'id':
    case 'near':
    case 'with':
      return { operator, operand: messageId(operator, operand) };
  }
}

function text(operator: string, operand: unknown): string {
  if (typeof operand !== 'string') throw errors.badNarrow(`'${operator}' operand is not a string`);
  return operand;
}

function oneOf<T extends string>(operator: string, operand: unknown, allowed: readonly T[]): T {
  if (typeof operand === 'string' && (allowed as readonly string[]).includes(operand)) return operand as T;
  throw errors.badNarrow(`unknown '${operator}' operand ${String(operand)}`);
}

function reference(operator: string, operand: unknown): Reference {
  if (typeof operand === 'number' && Number.isSafeInteger(operand)) return operand;
  if (typeof operand === 'string' && operand.trim() !== '') return operand.trim();
  throw errors.badNarrow(`invalid '${operator}' operand`);
}

// A list of user IDs, or a string of comma-separated emails (api-notes §c).
function dmOperand(operand: unknown): Reference[] {
  if (typeof operand === 'number') return [reference('dm', operand)];
  if (Array.isArray(operand) && operand.length > MAX_RECIPIENTS) throw errors.badNarrow(`'dm' names more than ${MAX_RECIPIENTS} users`);
  if (Array.isArray(operand) && operand.length > 0) return operand.map((item) => reference('dm', item));
  if (typeof operand === 'string') {
    const emails = operand
      .split(',')
      .map((email) => email.trim())
      .filter((email) => email !== '');
    if (emails.length > 0) return emails;
  }
  throw errors.badNarrow("invalid 'dm' operand");
}

function messageId(operator: string, operand: unknown): number {
  if (typeof operand === 'number' && Number.isSafeInteger(operand) && operand >= 0) return operand;
  if (typeof operand === 'string' && /^[0-9]{1,15}$/.test(operand)) return Number(operand);
  throw errors.badNarrow(`invalid '${operator}' operand ${String(operand)}`);
}
