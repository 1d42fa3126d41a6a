import { errorResponse, type ResponseHandler, type Shard } from './shard-thread';

interface PendingRequest {
  shard: number;
  deadline: number;
  respond: ResponseHandler;
  /** A parked poll waits for news, not for its shard: it does not count as queued work. */
  longPoll: boolean;
}

const ignoreAnswer: ResponseHandler = () => undefined;

/**
 * The requests handed to shards and not yet answered, with their deadlines, keeping each
 * shard's count of queued work (parked polls aside) in step.
 */
export class PendingRequests {
  private readonly byId = new Map<number, PendingRequest>();

  constructor(private readonly shards: readonly Shard[]) {}

  get size(): number {
    return this.byId.size;
  }

  add(id: number, shardIndex: number, deadline: number, respond: ResponseHandler, longPoll: boolean): void {
    this.byId.set(id, { shard: shardIndex, deadline, respond, longPoll });
    if (!longPoll) (this.shards[shardIndex] as Shard).queued++;
  }

  /** The client went away (ShardPool.cancel): returns the shard that has the request. */
  cancel(id: number): number | undefined {
    const pending = this.byId.get(id);
    if (!pending) return undefined;
    if (pending.longPoll) this.forget(id);
    else pending.respond = ignoreAnswer;
    return pending.shard;
  }

  /** Takes a request off the books (answered, cancelled, failed or timed out). */
  forget(id: number): PendingRequest | undefined {
    const pending = this.byId.get(id);
    if (!pending) return undefined;
    this.byId.delete(id);
    if (!pending.longPoll) (this.shards[pending.shard] as Shard).queued--;
    return pending;
  }

  /** Whether `id` is a long poll still waiting for its answer. */
  isLongPoll(id: number): boolean {
    return this.byId.get(id)?.longPoll === true;
  }

  /** Parked polls per shard, by shard index. */
  longPollsPerShard(): number[] {
    const longPolls = this.shards.map(() => 0);
    for (const pending of this.byId.values()) if (pending.longPoll) longPolls[pending.shard] = (longPolls[pending.shard] ?? 0) + 1;
    return longPolls;
  }

  /** Answers every request of a shard with a 503 JSON error (the shard died). */
  failShard(shardIndex: number, msg: string): void {
    for (const [id, pending] of this.byId) {
      if (pending.shard !== shardIndex) continue;
      this.forget(id);
      pending.respond(errorResponse(id, 503, msg));
    }
  }

  /** Answers every request past its deadline with a 503 JSON error. */
  expireOverdue(now: number): void {
    for (const [id, pending] of this.byId) {
      if (pending.deadline > now) continue;
      this.forget(id);
      pending.respond(errorResponse(id, 503, 'The server took too long to answer; try again'));
    }
  }
}
