/**
 * Suggestions for the search box as a person types: operator names, then the people, streams
 * or values an operator takes. Each completes the last piece typed. DOM-free.
 */
import type { ChatSnapshot } from '../common/types';
import { SEARCH_OPERATORS } from '../state/search-query';
import { sortedSubscriptions } from '../state/snapshot';
import { matchRank } from './completion';

export interface SearchSuggestion {
  /** The completed piece, as the list shows it. */
  label: string;
  /** The whole query once it is taken. */
  value: string;
}

/** The API's `is` and `has` operands (api-notes §c). */
const FIXED_OPERANDS: Readonly<Record<string, readonly string[]>> = {
  is: ['dm', 'starred', 'mentioned', 'unread', 'alerted', 'resolved'],
  has: ['link', 'image', 'attachment'],
  in: ['home', 'all'],
  streams: ['public'],
};
const PEOPLE_OPERATORS = new Set(['sender', 'dm', 'dm-including']);

function quoted(text: string): string {
  return /\s/.test(text) ? `"${text}"` : text;
}

function operandChoices(operator: string, typed: string, snapshot: ChatSnapshot): string[] {
  const wanted = typed.replace(/^"/, '').toLowerCase();
  const fixed = FIXED_OPERANDS[operator];
  if (fixed) return fixed.filter((value) => value.startsWith(wanted));
  const ranked: { rank: number; value: string }[] = [];
  if (PEOPLE_OPERATORS.has(operator)) {
    for (const user of snapshot.users.values()) {
      if (!user.is_active) continue;
      const rank = Math.min(matchRank(user.full_name, wanted) ?? 9, matchRank(user.email, wanted) ?? 9);
      if (rank < 9) ranked.push({ rank, value: user.email });
    }
  } else if (operator === 'stream') {
    for (const sub of sortedSubscriptions(snapshot)) {
      const rank = matchRank(sub.name, wanted);
      if (rank !== null) ranked.push({ rank, value: quoted(sub.name) });
    }
  }
  return ranked.sort((a, b) => a.rank - b.rank).map((entry) => entry.value);
}

export function searchSuggestions(query: string, snapshot: ChatSnapshot, limit = 8): SearchSuggestion[] {
  const last = /(-?)([^\s:]*)(:?)(\S*)$/.exec(query);
  if (!last || last[0] === '') return [];
  const [piece, negated = '', name = '', colon, operand = ''] = last;
  const before = query.slice(0, query.length - piece.length);
  const operator = SEARCH_OPERATORS[name.toLowerCase()];
  if (colon === ':' && operator !== undefined) {
    return operandChoices(operator, operand, snapshot)
      .slice(0, limit)
      .map((value) => ({ label: `${negated}${name}:${value}`, value: `${before}${negated}${name}:${value} ` }));
  }
  if (colon === ':') return [];
  return Object.keys(SEARCH_OPERATORS)
    .filter((candidate) => candidate.startsWith(name.toLowerCase()) && candidate !== name.toLowerCase())
    .slice(0, limit)
    .map((candidate) => ({ label: `${negated}${candidate}:`, value: `${before}${negated}${candidate}:` }));
}
