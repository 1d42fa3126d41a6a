import { z } from 'zod';
import { errors } from '../lib/errors';
import { param } from '../lib/params';
import { openRoute } from '../lib/route';
import { shardStats } from '../lib/shard-stats';
import { EMPTY } from '../schemas/objects';
import { doMoveRecentRowsThrough, RECENT_ROWS_PER_BATCH } from '../actions/recent-rows';

/**
 * Routes for the crash-isolation tests. The front end matches them only with TEST_HOOKS=1
 * and the shard refuses them otherwise (workers/main.ts), so production cannot reach them.
 */
export const postCrashShard = openRoute(z.object({}), EMPTY, () => {
  // Throwing from a timer is an uncaught exception: it ends the whole shard thread.
  setImmediate(() => {
    throw new Error('shard crash requested by a test');
  });
  return new Promise<never>(() => undefined);
});

/** Sleeps in progress on this shard: a test waits for its request to be here, not for a while. */
let sleeping = 0;

export const postSleep = openRoute(
  z.object({ ms: z.coerce.number().int().min(0).max(10_000) }),
  z.strictObject({ slept: z.number().int() }),
  async (_ctx, { ms }) => {
    sleeping++;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      sleeping--;
    }
    return { slept: ms };
  },
);

export const getSleepers = openRoute(z.object({}), z.strictObject({ sleeping: z.number().int() }), () => ({ sleeping }));

/** Moves every row of user_messages_recent into user_messages now (actors/recent-rows.ts). */
export const postMoveRecentRows = openRoute(z.object({}), EMPTY, async ({ realm }) => {
  await doMoveRecentRowsThrough(realm, Number.MAX_SAFE_INTEGER, RECENT_ROWS_PER_BATCH);
  return {};
});

/** An unexpected exception: the realm must answer a 500 JSON error and log the route. */
export const postThrow = openRoute(z.object({}), EMPTY, () => {
  throw new TypeError('unexpected failure requested by a test');
});

/**
 * Holds this realm's message renders (`hold`), waits until `count` of them are waiting
 * (`wait_parked`), or lets them go (`release`): a render that takes as long as a test needs.
 */
export const postRenderHold = openRoute(
  z.object({ op: z.enum(['hold', 'wait_parked', 'release']), count: z.coerce.number().int().min(1).max(100).default(1) }),
  EMPTY,
  async ({ realm }, { op, count }) => {
    if (op === 'hold') realm.renderHold.hold();
    else if (op === 'release') realm.renderHold.release();
    else await realm.renderHold.whenParked(count);
    return {};
  },
);

/**
 * Holds this shard's fsyncs (`hold`; what was committed before is synced first) or lets them
 * go (`release`): the answers the shard sends after a commit made meanwhile wait at the front
 * end, as they would for a slow disk.
 */
export const postSyncHold = openRoute(z.object({ op: z.enum(['hold', 'release']) }), EMPTY, ({ realm }, { op }) => {
  if (!realm.holdSync(op === 'hold')) throw errors.badRequest('This realm makes its commits durable on its own thread');
  return {};
});

/** A shard stuck in a synchronous loop for `ms`: only the front end's watchdog can end it sooner. */
export const postSpin = openRoute(
  z.object({ ms: z.coerce.number().int().min(0).max(120_000) }),
  z.strictObject({ spun: z.number().int() }),
  (_ctx, { ms }) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      // spinning on purpose
    }
    return { spun: ms };
  },
);

/** Memory held until the thread passes its heap limit (SHARD_HEAP_LIMIT_MB) and ends. */
const hoard: string[][] = [];
export const postHog = openRoute(z.object({}), EMPTY, () => {
  for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `held ${i} ${hoard.length}`));
});

/** A shard that calls process.exit, which ends only its own thread. */
export const postExit = openRoute(z.object({}), EMPTY, () => {
  process.exit(3);
});

const DELAY_FIGURES = z.strictObject({ p50: z.number(), p99: z.number(), max: z.number() });

/** What GET /__test__/shard_stats answers (workers/lib/shard-stats.ts). */
const SHARD_STATS = z.strictObject({
  loop_delay_ms: DELAY_FIGURES,
  in_shard_ms: DELAY_FIGURES,
  longest: z.array(z.strictObject({ what: z.string(), ms: z.number() })),
  busiest: z.array(z.strictObject({ what: z.string(), count: z.number().int(), total_ms: z.number() })),
});

/** The shard thread's event-loop delay and longest synchronous stretches; `reset` starts anew. */
export const getShardStats = openRoute(z.object({ reset: param.bool(false) }), SHARD_STATS, (_ctx, { reset }) => ({
  ...shardStats.snapshot(reset),
}));

/** What the broken-contract hook declares it answers. */
const declaredBody = z.strictObject({ user_id: z.number().int(), email: z.string() });

/**
 * A route that breaks its own result schema as `fault` says: a field re-typed, one added, one
 * missing, or bytes where JSON is declared. CONTRACT_CHECKS must turn each into a 500.
 */
export const postBrokenContract = openRoute(
  z.object({ fault: z.enum(['none', 'retyped', 'extra', 'missing']) }),
  declaredBody,
  (_ctx, { fault }) => {
    const bodies: Record<typeof fault, Record<string, unknown>> = {
      none: { user_id: 1, email: 'a@example.com' },
      retyped: { user_id: '1', email: 'a@example.com' },
      extra: { user_id: 1, email: 'a@example.com', is_admin: false },
      missing: { user_id: 1 },
    };
    // Past the compiler on purpose: this hook exists to answer what its schema forbids.
    return bodies[fault] as z.input<typeof declaredBody>;
  },
);
