/**
 * Response bodies from a shard to the front end through memory the two threads share.
 *
 * Transferring a fresh ArrayBuffer per answer was measured to cost the front end a full
 * mark-compact about every 50 ms under fetch-narrow (50 KB pages at 5,000 a second): V8 counts
 * each arriving buffer as external memory and collects the old generation to bound it, though
 * the buffers die young. A ring reuses the same bytes, so nothing is allocated per answer.
 *
 * One writer (the shard) and one reader (the front end), in order: the front end handles a
 * shard's messages in the order they were posted and writes each body out before the next,
 * so releasing a slot releases everything before it too.
 */

/** Where a body lies in the ring; `end` is the writer's position just past it. */
export interface RingSlot {
  offset: number;
  length: number;
  end: number;
}

/** A power of two, so positions may run past 2^32 and wrap without breaking `% capacity`. */
export const BODY_RING_BYTES = 8 * 1024 * 1024;
/** Bodies larger than this (files, mostly) are transferred as before. */
export const MAX_RING_BODY = BODY_RING_BYTES / 8;
const HEADER_BYTES = 8;

export function createBodyRing(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + BODY_RING_BYTES);
}

/** Copies `pieces` one after another into `target` (large enough for them all), and returns it. */
export function joinInto(pieces: readonly Uint8Array[], target: Uint8Array): Uint8Array {
  let at = 0;
  for (const piece of pieces) {
    target.set(piece, at);
    at += piece.length;
  }
  return target;
}

export class BodyRing {
  /** [0]: how far the reader has released, as an unsigned 32-bit position. */
  private readonly released: Int32Array;
  private readonly data: Uint8Array;
  /** The writer's position (only the writer uses it). */
  private written = 0;

  constructor(shared: SharedArrayBuffer) {
    this.released = new Int32Array(shared, 0, 1);
    this.data = new Uint8Array(shared, HEADER_BYTES, BODY_RING_BYTES);
  }

  /**
   * Writer: copies `pieces` (`length` bytes in all) into the ring, contiguously; null when they
   * do not fit now or are too large, and the caller sends them some other way.
   */
  write(pieces: readonly Uint8Array[], length: number): RingSlot | null {
    if (length > MAX_RING_BODY) return null;
    let start = this.written;
    let offset = start % BODY_RING_BYTES;
    // A body never wraps: the tail too short to hold it is skipped (and released with it).
    if (offset + length > BODY_RING_BYTES) {
      start = (start + BODY_RING_BYTES - offset) >>> 0;
      offset = 0;
    }
    const end = (start + length) >>> 0;
    const released = Atomics.load(this.released, 0) >>> 0;
    if ((end - released) >>> 0 > BODY_RING_BYTES) return null;
    if (pieces.length === 1) {
      this.data.set(pieces[0] as Uint8Array, offset);
    } else {
      // Into shared memory, each copy costs about 50 ns however small (measured: a page's 200
      // pieces, 10 µs one by one; joined in private memory first, then copied once, 4 µs).
      this.data.set(joinInto(pieces, this.scratch(length)), offset);
    }
    this.written = end;
    return { offset, length, end };
  }

  private scratchBytes = new Uint8Array(0);

  /** The writer's private buffer for joining pieces, reused from one body to the next. */
  private scratch(length: number): Uint8Array {
    if (this.scratchBytes.length < length) this.scratchBytes = new Uint8Array(Math.max(length, 2 * this.scratchBytes.length));
    return this.scratchBytes.subarray(0, length);
  }

  /** Reader: the body's bytes, valid until `release`. */
  view(slot: RingSlot): Uint8Array {
    return this.data.subarray(slot.offset, slot.offset + slot.length);
  }

  /** Reader: the body (and every one before it) is written out; the writer may reuse it. */
  release(slot: RingSlot): void {
    Atomics.store(this.released, 0, slot.end | 0);
  }
}
