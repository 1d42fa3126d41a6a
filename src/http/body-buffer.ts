// A body's first allocation unless its first chunk is larger; a smaller Content-Length is allocated exactly.
const FIRST_BODY_CAPACITY = 64 * 1024;

/**
 * A request body read into memory that grows as its bytes arrive, doubling up to `limit` (the
 * Content-Length, else the body limit), so its copies total under twice its size. The memory
 * is its own (allocUnsafeSlow, not a slice of the shared pool): the body may be transferred to
 * a shard, and transferring a pool slice would detach the pool under every Buffer.
 */
export class BodyBuffer {
  private buffer: Buffer | null = null;
  private length = 0;

  /** Bytes appended so far. */
  get received(): number {
    return this.length;
  }

  constructor(private readonly limit: number) {}

  /** Copies `chunk` in (uWS reuses its memory after the callback); false past the limit. */
  append(chunk: ArrayBuffer): boolean {
    const needed = this.length + chunk.byteLength;
    if (needed > this.limit) return false;
    let buffer = this.buffer;
    if (buffer === null || needed > buffer.length) {
      const capacity = Math.min(this.limit, Math.max(needed, FIRST_BODY_CAPACITY, (buffer?.length ?? 0) * 2));
      const grown = Buffer.allocUnsafeSlow(capacity);
      buffer?.copy(grown, 0, 0, this.length);
      this.buffer = buffer = grown;
    }
    buffer.set(new Uint8Array(chunk), this.length);
    this.length = needed;
    return true;
  }

  /** The bytes received, over memory of their own. */
  bytes(): Buffer {
    const buffer = this.buffer ?? Buffer.allocUnsafeSlow(0);
    return this.length === buffer.length ? buffer : buffer.subarray(0, this.length);
  }
}
