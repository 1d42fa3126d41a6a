/**
 * Resizing uploaded avatars and custom emoji as the public server does (SPEC avatars, custom
 * emoji): an avatar becomes a square, centre-cropped PNG of 100 px and a medium one of 500 px
 * (smaller images are scaled up); a still emoji becomes a 64 px square in its own format, an
 * animated one fits in 64 px, padded with transparency. sharp runs libvips on the libuv pool,
 * so the shard thread only waits for the promise.
 */
import type { FormatEnum, Metadata, Sharp } from 'sharp';
import { errors } from './errors';

// The package's CommonJS entry is the function itself (its ESM types call it the default export).
type SharpFactory = (typeof import('sharp'))['default'];
let sharpFactory: SharpFactory | null = null;

/** libvips is loaded with the first image, not with the shard: most shards never resize one. */
function sharp(): SharpFactory {
  sharpFactory ??= require('sharp') as SharpFactory;
  return sharpFactory;
}

export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;
export const EMOJI_SIZE = 64;
/** Above this many pixels an upload is refused before decoding (the public server's image-bomb limit). */
const MAX_IMAGE_PIXELS = 90_000_000;

const OUTPUT_FORMATS: Record<string, keyof FormatEnum> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** Runs one libvips pipeline; what it cannot read (sharp throws early for some) becomes the API's bad-image error. */
async function render(pipeline: () => Sharp): Promise<Buffer> {
  try {
    return await pipeline().toBuffer();
  } catch (error) {
    if (error instanceof Error && /pixel limit/.test(error.message)) throw errors.badImage('Image size exceeds limit.');
    throw errors.imageNotDecodable();
  }
}

function open(bytes: Uint8Array, animated: boolean): Sharp {
  return sharp()(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, animated, failOn: 'error' });
}

/** A square PNG of `size` px cut from the image's centre (the avatar and its medium version). */
export function squareAvatar(bytes: Uint8Array, size: number): Promise<Buffer> {
  return render(() => open(bytes, false).rotate().resize(size, size, { fit: 'cover', position: 'centre' }).png());
}

export interface ResizedEmoji {
  image: Buffer;
  /** An animated emoji's first frame as a PNG (the API's `still_url`); null for a still image. */
  still: Buffer | null;
}

/** The emoji image in its uploaded format (`contentType`, as sniffed). */
export async function resizedEmoji(bytes: Uint8Array, contentType: string): Promise<ResizedEmoji> {
  const format = OUTPUT_FORMATS[contentType] ?? 'png';
  const pages = (await metadataOf(bytes)).pages ?? 1;
  if (pages > 1) {
    const transparent = { r: 0, g: 0, b: 0, alpha: 0 };
    const fit = { fit: 'contain', background: transparent } as const;
    const [image, still] = await Promise.all([
      render(() => open(bytes, true).resize(EMOJI_SIZE, EMOJI_SIZE, fit).toFormat(format)),
      render(() => open(bytes, false).resize(EMOJI_SIZE, EMOJI_SIZE, fit).png()),
    ]);
    return { image, still };
  }
  const image = await render(() =>
    open(bytes, false).rotate().resize(EMOJI_SIZE, EMOJI_SIZE, { fit: 'cover', position: 'centre' }).toFormat(format),
  );
  return { image, still: null };
}

async function metadataOf(bytes: Uint8Array): Promise<Metadata> {
  try {
    return await open(bytes, true).metadata();
  } catch {
    throw errors.imageNotDecodable();
  }
}
