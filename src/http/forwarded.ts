import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (TRUSTED_PROXIES). A
 * client reaching the server directly could otherwise claim HTTPS (the session cookie's Secure
 * flag follows it) or any address.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  private readonly empty: boolean;

  /** `entries`: addresses and CIDR ranges, already validated (config.ts). */
  constructor(entries: readonly string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  trusts(address: string): boolean {
    if (this.empty) return false;
    const family = isIP(address);
    // IPv4-mapped IPv6 peers (a server listening on "::") are checked against IPv4 ranges too.
    return family !== 0 && this.list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  /**
   * The client's address: the peer's own unless the peer is trusted; then the nearest address of
   * X-Forwarded-For that is not a trusted proxy (each proxy appends the address it saw, so only
   * the entries appended by trusted proxies are believed).
   */
  clientAddress(peer: string, forwardedFor: string): string {
    if (forwardedFor === '' || !this.trusts(peer)) return peer;
    const hops = forwardedFor.split(',').map((hop) => hop.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i] as string;
      if (isIP(hop) === 0) return peer;
      if (i === 0 || !this.trusts(hop)) return hop;
    }
    return peer;
  }

  /** Whether the request reached the first proxy over TLS; believed only from a trusted peer. */
  isSecure(peer: string, forwardedProto: string): boolean {
    if (forwardedProto === '' || !this.trusts(peer)) return false;
    // Several proxies may each append theirs: the first is what the client used.
    return forwardedProto.split(',')[0]?.trim().toLowerCase() === 'https';
  }
}
