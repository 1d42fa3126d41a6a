/**
 * URL rules of the dialect: which link targets are allowed, how scheme-less targets are completed,
 * how same-realm links are made relative, and the hash encoding of narrow URLs (api-notes §g).
 */

/** api-notes §g: anything else stays literal text. */
const ALLOWED_SCHEMES = new Set([
  'http',
  'https',
  'ftp',
  'file',
  'bitcoin',
  'geo',
  'im',
  'irc',
  'ircs',
  'magnet',
  'mailto',
  'matrix',
  'mms',
  'news',
  'nntp',
  'openpgp4fpr',
  'sip',
  'sms',
  'smsto',
  'ssh',
  'tel',
  'urn',
  'webcal',
  'wtai',
  'xmpp',
]);

export const ALLOWED_LINK_SCHEMES: readonly string[] = [...ALLOWED_SCHEMES];

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * The href a link target becomes, or null when the target may not be linked at all.
 * `x@y` gets `mailto:`, `/path` and `#fragment` stay relative, other scheme-less targets get
 * `http://`, and only the allowed schemes pass.
 */
export function sanitizeUrl(target: string): string | null {
  const url = target.replace(/ /g, '%20');
  const scheme = SCHEME.exec(url);
  if (scheme === null) {
    if (!url.startsWith('//')) {
      const path = url.split(/[?#]/, 1)[0] ?? '';
      if (path.includes('@')) return `mailto:${url}`;
      if (path.startsWith('/')) return url;
      if (path === '' && url.startsWith('#') && url.length > 1) return url;
    }
    return sanitizeUrl(`http://${url}`);
  }
  const name = (scheme[1] ?? '').toLowerCase();
  if (!ALLOWED_SCHEMES.has(name)) return null;
  return name + url.slice(name.length);
}

function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** A link to a narrow in this realm opens in place: `http://realm/#narrow/x` -> `#narrow/x`. */
export function relativeToRealm(href: string, realmUrl: string): string {
  const prefix = `${withoutTrailingSlash(realmUrl)}/`;
  return href.startsWith(`${prefix}#narrow/`) ? href.slice(prefix.length) : href;
}

const UPLOADS_PREFIX = '/user_uploads/';

/** The "/user_uploads/..." path an href points at in this realm, if it points at one. */
export function uploadedFilePath(href: string, realmUrl: string): string | null {
  const realm = withoutTrailingSlash(realmUrl);
  let path: string;
  if (href.startsWith(UPLOADS_PREFIX)) path = href;
  else if (href.startsWith(`${realm}${UPLOADS_PREFIX}`)) path = href.slice(realm.length);
  else return null;
  return path.split(/[?#]/, 1)[0] ?? path;
}

const HASH_SAFE_BYTE = /[A-Za-z0-9_~-]/;

/**
 * Narrow-URL operand encoding (api-notes §g): bytes outside `[A-Za-z0-9_~-]` are percent-encoded,
 * then `%` becomes `.`; so "some topic" -> "some.20topic" and "." -> ".2E".
 */
export function hashEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && HASH_SAFE_BYTE.test(char) ? char : `.${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function streamNarrowUrl(streamId: number, streamName: string): string {
  return `/#narrow/stream/${streamId}-${hashEncode(streamName.replace(/ /g, '-'))}`;
}

export function topicNarrowUrl(streamId: number, streamName: string, topic: string): string {
  return `${streamNarrowUrl(streamId, streamName)}/topic/${hashEncode(topic)}`;
}

/** Image links get an inline preview; the list is the one browsers display natively. */
const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

function pathOf(url: string): string {
  const withoutQuery = url.split(/[?#]/, 1)[0] ?? url;
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/]*/.exec(withoutQuery);
  return authority === null ? withoutQuery : withoutQuery.slice(authority[0].length);
}

export function looksLikeImage(url: string): boolean {
  const path = pathOf(url).toLowerCase();
  return IMAGE_EXTENSIONS.some((extension) => path.endsWith(extension));
}

/** `application/x-www-form-urlencoded` encoding of one value (space as `+`). */
function formEncode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

export interface PreviewImageSources {
  src: string;
  /** Only set when the image goes through the thumbnail endpoint. */
  fullsizeSrc?: string;
}

/**
 * External images and uploads are shown through the server's `/thumbnail` endpoint (the fixture's
 * `inline_image` cases); other same-site images are used as they are.
 */
export function previewImageSources(imageUrl: string): PreviewImageSources {
  const external = /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(imageUrl) || imageUrl.startsWith('//');
  if (!external && !imageUrl.startsWith(UPLOADS_PREFIX)) return { src: imageUrl };
  const target = formEncode(imageUrl.replace(/^\/+/, ''));
  return {
    src: `/thumbnail?url=${target}&size=thumbnail`,
    fullsizeSrc: `/thumbnail?url=${target}&size=full`,
  };
}
