import { DEFAULT_REALM, REALM_NAME_PATTERN } from '../wire/realm-names';

/**
 * Maps a Host header to a realm name (DESIGN §Realms): `<sub>.<external host>` is realm
 * `<sub>`; the bare external host, `localhost:<port>` and `127.0.0.1:<port>` are the default
 * realm. Returns null for a host that names no possible realm.
 */
export class RealmResolver {
  private readonly defaultHosts: Set<string>;
  private readonly suffix: string;

  constructor(externalHost: string, port: number) {
    this.defaultHosts = new Set([externalHost, `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]);
    this.suffix = `.${externalHost}`;
  }

  resolve(hostHeader: string): string | null {
    const host = hostHeader.toLowerCase();
    if (this.defaultHosts.has(host)) return DEFAULT_REALM;
    if (!host.endsWith(this.suffix)) return null;
    const sub = host.slice(0, -this.suffix.length);
    return REALM_NAME_PATTERN.test(sub) ? sub : null;
  }
}
