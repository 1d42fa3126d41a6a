/**
 * The image type of uploaded bytes, from their signature, so an avatar or emoji is
 * served with the type its bytes have whatever the upload claimed. null: not an image we show.
 */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...signature: number[]): boolean => signature.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  // RIFF....WEBP
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50)
    return 'image/webp';
  return null;
}
