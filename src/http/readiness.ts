import type { ShardPool } from '../realm/router';
import { jsonError } from './write-response';

/** How long a health or readiness check waits for each shard's pong. */
const PING_TIMEOUT_MS = 2_000;

export interface HealthAnswer {
  status: number;
  body: string;
}

/**
 * `GET /health`: 200 when every shard answers a ping. `GET /ready` (or `/health?ready=1`), what a
 * load balancer asks before sending traffic: the same round trip to every shard, saying which
 * ones are silent, and 503 as soon as a graceful stop has begun, so the balancer drains this
 * process before its listener closes.
 */
export async function healthAnswer(shards: ShardPool, readiness: boolean, stopping: boolean): Promise<HealthAnswer> {
  if (readiness && stopping) return { status: 503, body: jsonError('The server is stopping', { shards: shards.shardCount }) };
  const answered = await shards.pingEach(PING_TIMEOUT_MS);
  if (answered.every(Boolean)) return { status: 200, body: JSON.stringify({ result: 'success', msg: '', shards: shards.shardCount }) };
  if (!readiness) return { status: 503, body: jsonError('A realm shard is not answering') };
  const silent = answered.flatMap((ok, index) => (ok ? [] : [index]));
  return {
    status: 503,
    body: jsonError(`Not ready: shard ${silent.join(', ')} of ${shards.shardCount} is not answering`, {
      shards: shards.shardCount,
      silent_shards: silent,
    }),
  };
}
