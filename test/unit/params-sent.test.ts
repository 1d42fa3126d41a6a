import fc from 'fast-check';
import t from 'tap';
import type { z } from 'zod';
import { ApiError } from '../../workers/lib/errors';
import { issueToApiError, parseParams } from '../../workers/lib/params';
import { ROUTES } from '../../workers/routes';

// parseParams parses only the parameters a request sent (and fills in the absent ones from what
// the schema makes of them once): whatever is sent, its answer must be the whole schema's.

const VALUES = [
  'true',
  'false',
  'null',
  '0',
  '1',
  '-5',
  '42',
  '1.5',
  '12345678901234567890',
  '"s"',
  'abc',
  '',
  '[]',
  '[1,2,2]',
  '["a"]',
  '{}',
  '{"a":1}',
  '[["stream","x"]]',
  'newest',
  'active',
  'add',
  'read',
];

function outcome(run: () => Record<string, unknown>): { keys: string[]; values: Record<string, unknown> } | { error: string } {
  try {
    const values = run();
    return { keys: Object.keys(values), values };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { error: JSON.stringify({ status: err.status, body: err.toBody() }) };
  }
}

t.test('every route parses any mix of sent parameters as its whole schema does', async (t) => {
  let compared = 0;
  let parsed = 0;
  const mismatches: string[] = [];
  for (const [id, route] of Object.entries(ROUTES)) {
    const schema = route.params;
    const names = [...Object.keys(schema.shape), 'not_a_parameter'];
    const request = fc.dictionary(fc.constantFrom(...names), fc.constantFrom(...VALUES), { maxKeys: names.length });
    fc.assert(
      fc.property(request, (raw) => {
        const fast = outcome(() => parseParams(schema, {}, raw, {}).values);
        const whole = outcome(() => {
          const result = schema.safeParse({ ...raw });
          if (!result.success) throw issueToApiError(result.error.issues[0] as z.core.$ZodIssue, { ...raw });
          return result.data;
        });
        compared++;
        if ('values' in whole) parsed++;
        // fast-check's properties only count a throw as a failure; the mismatches are kept.
        if (JSON.stringify(fast) !== JSON.stringify(whole)) mismatches.push(`${id} ${JSON.stringify(raw)}`);
      }),
      { numRuns: 40, seed: 24 },
    );
  }
  t.strictSame(mismatches.slice(0, 10), [], 'the same answer as the whole schema');
  t.ok(compared >= Object.keys(ROUTES).length * 40, `compared ${compared} requests`);
  t.ok(parsed > compared / 4, `${parsed} of them valid, the rest errors`);
});

t.test('a route with only absent parameters gets its defaults, fresh lists included', async (t) => {
  const getEvents = ROUTES['GET /events'].params;
  const first = parseParams(getEvents, {}, { queue_id: 'q', last_event_id: '3' }, {}).values;
  const second = parseParams(getEvents, {}, { queue_id: 'q', last_event_id: '3' }, {}).values;
  t.strictSame(first, getEvents.parse({ queue_id: 'q', last_event_id: '3' }));
  t.strictSame(Object.keys(first), Object.keys(getEvents.parse({ queue_id: 'q', last_event_id: '3' }) as object));
  t.not(first['narrow'], second['narrow'], 'a default list is made per request, never shared');
});
