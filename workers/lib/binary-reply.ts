import type { ResponseFrame } from '../../src/wire/protocol';

/**
 * An answer that is not the JSON envelope: a file's bytes (200, 206), an unsatisfiable
 * range (416) or a redirect (302). The front end writes the bytes as they are.
 */
export class BinaryReply {
  constructor(
    readonly status: number,
    readonly contentType: string,
    readonly bytes: Uint8Array,
    readonly headers: Record<string, string> = {},
  ) {}

  static redirect(location: string): BinaryReply {
    return new BinaryReply(302, '', new Uint8Array(0), { Location: location });
  }

  toFrame(id: number): ResponseFrame {
    return {
      kind: 'response',
      id,
      status: this.status,
      headers: this.headers,
      body: '',
      binary: { contentType: this.contentType, bytes: this.bytes },
    };
  }
}
