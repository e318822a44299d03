// IP addresses and CIDR ranges for key whitelists and trusted proxies. Every address lives in one
// 16-byte space: an IPv4 address is its IPv4-mapped IPv6 form (::ffff:a.b.c.d) and an IPv4 prefix
// /p is /(96+p) there. So a whitelist entry "1.2.3.4" matches a client a dual-stack socket reports
// as "::ffff:1.2.3.4", and the two spellings of one address can never disagree.

const MAPPED_PREFIX_BITS = 96;

export interface Cidr {
  /** The network address, 16 bytes, host bits cleared. */
  readonly bytes: Uint8Array;
  /** Prefix length in the 16-byte space (0..128). */
  readonly prefixBits: number;
}

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets: number[] = [];
  for (const part of parts) {
    // Leading zeros are refused: "010" means 8 to some parsers and 10 to others.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    octets.push(octet);
  }
  return octets;
}

function parseHexGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  for (const group of text.split(':')) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    groups.push(parseInt(group, 16));
  }
  return groups;
}

/** Groups of 16 bits; a dotted IPv4 tail counts as two groups. */
function parseIpv6Groups(text: string): number[] | null {
  let head = text;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = parseIpv4(text.slice(lastColon + 1));
    if (!v4) return null;
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    // Keep the ':' of "::1.2.3.4" so the "::" survives.
    head = text.slice(0, lastColon + 1);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const groups = parseHexGroups(head);
    if (!groups) return null;
    const all = [...groups, ...tail];
    return all.length === 8 ? all : null;
  }
  const left = parseHexGroups(halves[0]!);
  const right = parseHexGroups(halves[1]!);
  if (!left || !right) return null;
  const known = left.length + right.length + tail.length;
  if (known > 7) return null;
  return [...left, ...new Array<number>(8 - known).fill(0), ...right, ...tail];
}

function mapped(octets: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes.set(octets, 12);
  return bytes;
}

/** An IPv4 or IPv6 address as 16 bytes (IPv4 mapped), or null if `text` is not one. */
export function parseIp(text: string): Uint8Array | null {
  if (!text.includes(':')) {
    const v4 = parseIpv4(text);
    return v4 ? mapped(v4) : null;
  }
  const groups = parseIpv6Groups(text);
  if (!groups) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

function maskTo(bytes: Uint8Array, prefixBits: number): Uint8Array {
  const masked = new Uint8Array(16);
  for (let i = 0; i < 16; i++) {
    const bitsHere = Math.min(8, Math.max(0, prefixBits - 8 * i));
    masked[i] = bytes[i]! & ((0xff << (8 - bitsHere)) & 0xff);
  }
  return masked;
}

/**
 * An address ("10.1.2.3", "::1") or a range ("10.0.0.0/8", "2001:db8::/32", "::ffff:10.0.0.0/104").
 * A bare address is a single-address range. Host bits below the prefix are ignored. Null if invalid.
 */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/');
  const addressText = slash < 0 ? text : text.slice(0, slash);
  const bytes = parseIp(addressText);
  if (!bytes) return null;
  const isV4 = !addressText.includes(':');
  const maxBits = isV4 ? 32 : 128;
  let prefix = maxBits;
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > maxBits) return null;
  }
  const prefixBits = isV4 ? prefix + MAPPED_PREFIX_BITS : prefix;
  return { bytes: maskTo(bytes, prefixBits), prefixBits };
}

/** Whether the 16-byte address `ip` lies in `cidr`. */
export function cidrContains(cidr: Cidr, ip: Uint8Array): boolean {
  const whole = cidr.prefixBits >> 3;
  for (let i = 0; i < whole; i++) if (ip[i] !== cidr.bytes[i]) return false;
  const rest = cidr.prefixBits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((ip[whole]! ^ cidr.bytes[whole]!) & mask) === 0;
}

/** Whether the address `addr` (either family, any spelling) lies in one of `cidrs`; false if unparsable. */
export function ipMatches(addr: string, cidrs: readonly Cidr[]): boolean {
  const ip = parseIp(addr);
  return ip !== null && cidrs.some((cidr) => cidrContains(cidr, ip));
}
