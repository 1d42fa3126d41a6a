/**
 * JSON already serialised, to stand as a top-level value of a reply (lib/reply.ts): message
 * pages are assembled from cached text, and parsing it back only to serialise it again would
 * cost what the cache saves.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
