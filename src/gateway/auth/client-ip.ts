// The address a whitelist is checked against: the peer's, unless the peer is a trusted proxy, in
// which case the right-most X-Forwarded-For entry not itself a trusted proxy (DECISIONS: the
// header counts only from proxies listed in `trusted_proxies`).
import { ipMatches, type Cidr } from '../../base/ip.js';

export function clientIp(peer: string, forwardedFor: string, trustedProxies: readonly Cidr[]): string {
  if (trustedProxies.length === 0 || forwardedFor === '' || !ipMatches(peer, trustedProxies)) return peer;
  const hops = forwardedFor.split(',').map((h) => h.trim()).filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!ipMatches(hop, trustedProxies)) return hop;
  }
  return hops[0] ?? peer;
}
