// Seeded pseudo-random numbers for the simulated feed: xoshiro128** (Blackman & Vigna), 32-bit
// state words kept as int32, so the same seed gives the same sequence on every platform.

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/** splitmix32 step: spreads a 32-bit seed over the 128-bit state (which must not be all zero). */
function splitmix32(state: { s: number }): number {
  state.s = (state.s + 0x9e3779b9) | 0;
  let z = state.s;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return z ^ (z >>> 16);
}

/** FNV-1a of a stream name, so each symbol draws from its own sequence whatever the symbol order. */
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h;
}

export class Xoshiro128 {
  private constructor(private a: number, private b: number, private c: number, private d: number) {}

  /** The raw state, as in the reference implementation (for known-answer tests). */
  static fromState(a: number, b: number, c: number, d: number): Xoshiro128 {
    if ((a | b | c | d) === 0) throw new RangeError('xoshiro128** state must not be all zero');
    return new Xoshiro128(a | 0, b | 0, c | 0, d | 0);
  }

  /** An independent stream per (seed, name); any safe integer seed. */
  static seeded(seed: number, name: string): Xoshiro128 {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    const high = Math.floor(seed / 4294967296);
    const mix = { s: (seed ^ Math.imul(high, 0x9e3779b1) ^ hashName(name)) | 0 };
    // splitmix32's finaliser is a bijection of distinct counters, so at most one word is zero.
    return Xoshiro128.fromState(splitmix32(mix), splitmix32(mix), splitmix32(mix), splitmix32(mix));
  }

  /** Next output as an unsigned 32-bit integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /**
   * Approximately standard normal (Irwin–Hall of four uniforms, rescaled to variance 1): only
   * arithmetic, so it is bit-identical everywhere, and bounded to ±2√3, so no step is absurd.
   */
  nextNormal(): number {
    return (this.nextFloat() + this.nextFloat() + this.nextFloat() + this.nextFloat() - 2) * Math.sqrt(3);
  }
}
