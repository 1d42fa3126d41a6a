/**
 * JSON already serialised, as UTF-8 pieces, to stand as a top-level value of a reply
 * (lib/reply.ts): message pages are assembled from cached bytes, and turning them back into
 * one string only for the wire to encode it again would cost much of what the cache saves.
 */
export class JsonBytes {
  constructor(readonly pieces: readonly Buffer[]) {}
}

/**
 * JSON already serialised, as text, to stand as a top-level value of a reply that otherwise
 * travels as a string: small answers (a poll's events) keep riding the batched frames to the
 * front end instead of each taking the body ring and a message of its own.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
