import fc from 'fast-check';
import t from 'tap';
import { readParams } from '../../src/http/read-request';

// The front end's urlencoded reading must give what URLSearchParams gives (the last value of a
// repeated name winning), for any query or body.

const PIECES = [
  'a',
  'b',
  'topic',
  '=',
  '&',
  '&&',
  '+',
  '%',
  '%2B',
  '%26',
  '%3D',
  '%20',
  '%E2%82%AC',
  '%zz',
  '%C3',
  '%ED%A0%80',
  '?',
  'é',
  ' ',
  '2',
  'C',
];

function expected(text: string): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(text)) params[key] = value;
  return params;
}

t.test('query strings and urlencoded bodies read as URLSearchParams reads them', async (t) => {
  const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }).map((pieces) => pieces.join(''));
  const mismatches: string[] = [];
  let withValues = 0;
  fc.assert(
    fc.property(text, (input) => {
      const fromQuery = readParams(input, '', null).params;
      const fromBody = readParams('', 'application/x-www-form-urlencoded', Buffer.from(input)).params;
      const want = expected(input);
      if (Object.keys(want).length > 0) withValues++;
      if (JSON.stringify(Object.entries(fromQuery)) !== JSON.stringify(Object.entries(want))) mismatches.push(`query ${input}`);
      if (JSON.stringify(Object.entries(fromBody)) !== JSON.stringify(Object.entries(want))) mismatches.push(`body ${input}`);
    }),
    { numRuns: 3000, seed: 24 },
  );
  t.strictSame(mismatches.slice(0, 10), []);
  t.ok(withValues > 2000, `${withValues} of 3000 inputs had parameters`);
});

t.test('a poll and a send read as their clients write them', async (t) => {
  t.strictSame(
    { ...readParams('queue_id=1795793881%3Ab68fad3f6db8&last_event_id=12', '', null).params },
    { queue_id: '1795793881:b68fad3f6db8', last_event_id: '12' },
  );
  const body = Buffer.from('type=stream&to=general&topic=caf%C3%A9+talk&content=1+%2B+1+%3D+2%20%E2%82%AC&content=last');
  t.strictSame(
    { ...readParams('', 'application/x-www-form-urlencoded; charset=utf-8', body).params },
    { type: 'stream', to: 'general', topic: 'café talk', content: 'last' },
  );
});
