import t from 'tap';
import { z } from 'zod';
import { issuesOf } from '../../workers/lib/contract';
import { openRoute, type RouteContext } from '../../workers/lib/route';

/*
 * Compile-time facts of the route constructors (workers/lib/route.ts): a handler's returned
 * object has exactly its result schema's keys. Each `@ts-expect-error` below fails `npm run
 * build` the day its line compiles, so these checks cannot stop biting unnoticed.
 */
const params = z.object({});
const result = z.strictObject({ user_id: z.number().int(), note: z.string().optional() });

// An added field in a returned object literal, plain or async
// @ts-expect-error `extra` is not a key of the result schema
const added = openRoute(params, result, () => ({ user_id: 1, extra: true }));
// @ts-expect-error `extra` is not a key of the result schema
const addedAsync = openRoute(params, result, async () => ({ user_id: 1, extra: true }));
// @ts-expect-error one of two answers has a key the schema lacks
const addedInOneBranch = openRoute(params, result, (_ctx, p: object) => ('x' in p ? { user_id: 1 } : { user_id: 2, extra: 'x' }));
// A re-typed and a missing field
// @ts-expect-error `user_id` is a number in the schema
const retyped = openRoute(params, result, () => ({ user_id: '1' }));
// @ts-expect-error `user_id` is required
const missing = openRoute(params, result, async () => ({ note: 'n' }));
// A record of unknown keys cannot pass for the declared object either
const loose: Record<string, number> = { user_id: 1, other: 2 };
// @ts-expect-error an open record may hold any key
const open = openRoute(params, result, () => loose);

// What the schema declares compiles: required keys, optional ones, either answer of a branch.
const exact = openRoute(params, result, (_ctx, p: object) => ('x' in p ? { user_id: 1, note: 'n' } : { user_id: 2 }));

t.test('a handler answers its schema exactly; what tsc lets through, the run-time check agrees with', async (t) => {
  const ctx = {} as RouteContext;
  t.strictSame(await exact.run(ctx, {}), { user_id: 2 });
  t.strictSame(await exact.run(ctx, { x: 1 }), { user_id: 1, note: 'n' });
  t.equal(issuesOf(result, await exact.run(ctx, {})), '');
  // The routes tsc rejected still run; the contract check (CONTRACT_CHECKS) names the same faults.
  const faults = [added, addedAsync, addedInOneBranch, retyped, missing, open].map(async (route) =>
    issuesOf(result, await route.run(ctx, {})),
  );
  t.strictSame(await Promise.all(faults), [
    '(root): Unrecognized key: "extra"',
    '(root): Unrecognized key: "extra"',
    '(root): Unrecognized key: "extra"',
    'user_id: Invalid input: expected number, received string',
    'user_id: Invalid input: expected number, received undefined',
    '(root): Unrecognized key: "other"',
  ]);
});
