import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ipMatches, parseCidr, parseIp, type Cidr } from '../../src/base/ip.js';

const cidrs = (...texts: string[]): Cidr[] => texts.map((t) => {
  const c = parseCidr(t);
  if (!c) throw new Error(`bad test CIDR ${t}`);
  return c;
});

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });
const v4Text = (o: readonly number[]): string => o.join('.');
const v6Full = (g: readonly number[]): string => g.map((x) => x.toString(16).padStart(4, '0')).join(':');

/** Any RFC 4291 spelling: groups without leading zeros, one run of zero or more groups as "::". */
function v6Compressed(g: readonly number[], from: number, length: number): string {
  const hex = g.map((x) => x.toString(16));
  if (length === 0) return hex.join(':');
  return `${hex.slice(0, from).join(':')}::${hex.slice(from + length).join(':')}`;
}

/** Reference: the first `bits` bits of two byte strings agree. */
function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    if ((a[i >> 3]! & mask) !== (b[i >> 3]! & mask)) return false;
  }
  return true;
}

describe('parseIp', () => {
  it.each([
    ['1.2.3.4', '00000000000000000000ffff01020304'],
    ['::1', '00000000000000000000000000000001'],
    ['::', '00000000000000000000000000000000'],
    ['::ffff:1.2.3.4', '00000000000000000000ffff01020304'],
    ['::FFFF:7f00:1', '00000000000000000000ffff7f000001'],
    ['2001:db8::8a2e:370:7334', '20010db80000000000008a2e03707334'],
    ['1:2:3:4:5:6:7::', '00010002000300040005000600070000'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', '00000000000000000000ffff7f000001'],
    ['1:2:3:4:5:6:1.2.3.4', '00010002000300040005000601020304'],
  ])('reads %s', (text, hex) => {
    expect(Buffer.from(parseIp(text)!).toString('hex')).toBe(hex);
  });

  it.each([
    '', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.-1', 'a.b.c.d', ':', ':::', '1::2::3', '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7', '12345::', 'g::1', '::1%eth0', '1:2:3:4:5:6:7::1.2.3.4', '::1.2.3', '1.2.3.4::', ' 1.2.3.4', 'localhost',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('parseCidr', () => {
  it.each(['1.2.3.4/33', '::/129', '1.2.3.4/', '1.2.3.4/08', '1.2.3.4/-1', '1.2.3.4/a', '/8', '1.2.3.4/8/8'])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeNull();
  });

  it('places IPv4 prefixes in the mapped range', () => {
    expect(parseCidr('10.0.0.0/8')?.prefixBits).toBe(104);
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual(parseCidr('10.0.0.0/8'));
    expect(parseCidr('10.9.9.9/8')).toEqual(parseCidr('10.0.0.0/8'));
  });
});

describe('ipMatches', () => {
  it.each([
    ['10.1.2.3', ['10.0.0.0/8'], true],
    ['11.0.0.0', ['10.0.0.0/8'], false],
    ['::ffff:10.1.2.3', ['10.0.0.0/8'], true],
    ['10.1.2.3', ['::ffff:10.0.0.0/104'], true],
    ['127.0.0.1', ['::1'], false],
    ['::1', ['::1'], true],
    ['0:0:0:0:0:0:0:1', ['::1/128'], true],
    ['::2', ['::1/128'], false],
    ['2001:db8:ffff::1', ['2001:db8::/32'], true],
    ['2001:db9::1', ['2001:db8::/32'], false],
    ['203.0.113.7', ['0.0.0.0/0'], true],
    ['2001:db8::1', ['0.0.0.0/0'], false],
    ['2001:db8::1', ['::/0'], true],
    ['203.0.113.7', ['203.0.113.7/32'], true],
    ['203.0.113.8', ['203.0.113.7/32'], false],
    ['192.168.1.1', ['10.0.0.0/8', '192.168.0.0/16'], true],
    ['192.168.1.1', [], false],
    ['not an address', ['0.0.0.0/0', '::/0'], false],
  ] as const)('%s in %j is %s', (addr, ranges, expected) => {
    expect(ipMatches(addr, cidrs(...ranges))).toBe(expected);
  });

  it('matches an IPv4 address against a prefix exactly when the first bits agree', () => {
    fc.assert(fc.property(v4, v4, fc.integer({ min: 0, max: 32 }), (a, b, prefix) => {
      const range = cidrs(`${v4Text(a)}/${prefix}`);
      const expected = samePrefix(Uint8Array.from(a), Uint8Array.from(b), prefix);
      expect(ipMatches(v4Text(b), range)).toBe(expected);
      expect(ipMatches(`::ffff:${v4Text(b)}`, range)).toBe(expected);
    }));
  });

  it('matches an IPv6 address against a prefix exactly when the first bits agree', () => {
    fc.assert(fc.property(v6, v6, fc.integer({ min: 0, max: 128 }), (a, b, prefix) => {
      const ip = (g: readonly number[]): Uint8Array => Uint8Array.from(g.flatMap((x) => [x >> 8, x & 0xff]));
      expect(ipMatches(v6Full(b), cidrs(`${v6Full(a)}/${prefix}`))).toBe(samePrefix(ip(a), ip(b), prefix));
    }));
  });

  it('reads every spelling of an IPv6 address as the same address', () => {
    const spelled = v6.chain((g) => fc.tuple(fc.constant(g), fc.nat(8)).chain(([groups, from]) =>
      fc.tuple(fc.constant(groups), fc.constant(from), fc.integer({ min: 0, max: 8 - from }))));
    fc.assert(fc.property(spelled, ([g, from, length]) => {
      // "::" may only stand for zeros: zero that run out before spelling it.
      const groups = g.map((x, i) => (i >= from && i < from + length ? 0 : x));
      const text = v6Compressed(groups, from, length);
      expect(Buffer.from(parseIp(text)!)).toEqual(Buffer.from(parseIp(v6Full(groups))!));
    }));
  });

  it('/0 holds every address of its family, /32 and /128 only the address itself', () => {
    fc.assert(fc.property(v4, v4, (a, b) => {
      expect(ipMatches(v4Text(b), cidrs(`${v4Text(a)}/0`))).toBe(true);
      expect(ipMatches(v4Text(b), cidrs(`${v4Text(a)}/32`))).toBe(a.join() === b.join());
    }));
    fc.assert(fc.property(v6, v6, (a, b) => {
      expect(ipMatches(v6Full(b), cidrs(`${v6Full(a)}/0`))).toBe(true);
      expect(ipMatches(v6Full(b), cidrs(`${v6Full(a)}/128`))).toBe(a.join() === b.join());
    }));
  });
});
