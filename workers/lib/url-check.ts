// The public API's URL check for playground prefixes, link profile fields and external
// account URL patterns: an absolute http(s)/ftp(s) URL whose host is a dotted domain name,
// localhost or an IP address (so "https://invalid-url" is refused, as there).
const HOSTNAME = /^(?:localhost|(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,63}\.?|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i;
const SCHEMES = new Set(['http:', 'https:', 'ftp:', 'ftps:']);

export function isValidUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return SCHEMES.has(url.protocol) && HOSTNAME.test(url.hostname);
}
