/** Modules the build makes up (src/cli/build-web.ts). */
declare module 'virtual:emoji-table' {
  /** One emoji per line: hex code (`1f44d`, `1f1e6-1f1e8`), then its names, canonical first. */
  export const EMOJI_TABLE: string;
}

declare module 'virtual:emoji-images' {
  /** Emoji set (`vendora`) → the URL prefix of its images, `<code>.png` under it. */
  export const EMOJI_IMAGE_BASES: Readonly<Record<string, string>>;
}
