import { Packr } from 'msgpackr';
import type { FromShard, ToShard, ToShardBatchFrame } from './protocol';

// Plain maps, no record extension: frames are small and heterogeneous, and both ends must
// agree without shared structure state across a shard restart.
const packr = new Packr({ useRecords: false, moreTypes: false });

/**
 * `pack()` returns a view into msgpackr's large shared buffer; posting that view would make
 * postMessage copy the whole backing buffer (DESIGN.md, measured). Copy to an exact-size
 * buffer and transfer it instead.
 */
export function encodeFrame(frame: ToShard | ToShardBatchFrame | FromShard): ArrayBuffer {
  const view = packr.pack(frame);
  const exact = new Uint8Array(view.byteLength);
  exact.set(view);
  return exact.buffer;
}

export function decodeToShard(bytes: ArrayBuffer): ToShard | ToShardBatchFrame {
  return packr.unpack(new Uint8Array(bytes)) as ToShard | ToShardBatchFrame;
}

export function decodeFromShard(bytes: ArrayBuffer): FromShard {
  return packr.unpack(new Uint8Array(bytes)) as FromShard;
}
