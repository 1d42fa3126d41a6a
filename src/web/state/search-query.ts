/**
 * What a person types in the search box, as the narrow terms GET /messages takes (api-notes §c):
 * `operator:operand` pieces (`-` before one negates it, quotes allow spaces), the rest free
 * text for the `search` operator. DOM-free.
 */
/** One term of the API's `narrow` parameter. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | readonly number[];
  negated?: boolean;
}

/** Typed operator names, and the API operator each means. */
export const SEARCH_OPERATORS: Readonly<Record<string, string>> = {
  stream: 'stream',
  channel: 'stream',
  streams: 'streams',
  topic: 'topic',
  subject: 'topic',
  sender: 'sender',
  from: 'sender',
  dm: 'dm',
  'pm-with': 'dm',
  'dm-including': 'dm-including',
  is: 'is',
  has: 'has',
  in: 'in',
  near: 'near',
  id: 'id',
  search: 'search',
};

const PIECE = /(-?)([a-z-]+):(?:"([^"]*)"?|(\S*))|"([^"]*)"?|(\S+)/gi;
// The operators whose operand may be a user's or stream's ID.
const ID_OPERANDS = new Set(['stream', 'sender', 'dm-including']);

export function searchTerms(query: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  for (const match of query.matchAll(PIECE)) {
    const [whole, negated, name, quoted, bare, quotedWords, word] = match;
    const operator = name === undefined ? undefined : SEARCH_OPERATORS[name.toLowerCase()];
    if (operator === undefined || operator === 'search') {
      const text = operator === 'search' ? (quoted ?? bare ?? '') : (quotedWords ?? word ?? whole);
      if (text !== '') words.push(text);
      continue;
    }
    const operand = (quoted ?? bare ?? '').trim();
    if (operand === '') continue;
    const term: NarrowTerm = {
      operator,
      operand: ID_OPERANDS.has(operator) && /^[1-9][0-9]*$/.test(operand) ? Number(operand) : operand,
    };
    if (negated === '-') term.negated = true;
    terms.push(term);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}
