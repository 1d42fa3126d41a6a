import { z } from 'zod';
import { openRoute } from '../lib/route';

/**
 * Routes for the crash-isolation tests. The front end matches them only with TEST_HOOKS=1
 * and the shard refuses them otherwise (workers/main.ts), so production cannot reach them.
 */
export const postCrashShard = openRoute(z.object({}), () => {
  // Throwing from a timer is an uncaught exception: it ends the whole shard thread.
  setImmediate(() => {
    throw new Error('shard crash requested by a test');
  });
  return new Promise<never>(() => undefined);
});

export const postSleep = openRoute(z.object({ ms: z.coerce.number().int().min(0).max(10_000) }), async (_ctx, { ms }) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { slept: ms };
});

/** An unexpected exception: the realm must answer a 500 JSON error and log the route. */
export const postThrow = openRoute(z.object({}), () => {
  throw new TypeError('unexpected failure requested by a test');
});
