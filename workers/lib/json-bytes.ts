/**
 * JSON already serialised, as UTF-8 pieces, to stand as a top-level value of a reply
 * (lib/reply.ts): message pages are assembled from cached bytes, and turning them back into
 * one string only for the wire to encode it again would cost much of what the cache saves.
 */
export class JsonBytes {
  constructor(readonly pieces: readonly Buffer[]) {}
}
