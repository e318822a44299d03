// The repeating strings (a login, a symbol, a side, a status) a thread decoded lately, shared
// across event blocks. A block shares each of its strings only within itself (event-codec.ts), and
// below a few thousand orders a second a block holds one order: each would decode its login,
// symbol and side anew, a character at a time, and every position the read model keeps would hold
// copies of its own, which the main thread's scavenges copy and promote (docs/architecture.md,
// "The main thread's scavenges").
//
// Direct-mapped: a string's bytes pick one slot, and a newcomer replaces whatever was there, so the
// table never grows and needs no eviction; a hit is checked byte for byte, so a collision costs a
// decode, never a wrong string. 8,192 slots hold the logins of a few thousand active accounts
// beside the symbols and the enums.
const SLOT_BITS = 13;

export class RecentStrings {
  readonly #slots: (string | undefined)[] = new Array<string | undefined>(1 << SLOT_BITS).fill(undefined);

  /** The ASCII string of `bytes[at, at + length)`: the one decoded last time when it is still held. */
  ascii(bytes: Uint8Array, at: number, length: number): string {
    // FNV-1a over the bytes: cheap for the short strings this holds, and it spreads near-equal
    // logins ("500001", "500002") over different slots.
    let hash = 0x811c9dc5;
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ bytes[at + i]!, 0x01000193);
    const slot = hash >>> (32 - SLOT_BITS);
    const held = this.#slots[slot];
    if (held !== undefined && sameAscii(held, bytes, at, length)) return held;
    const s = asciiText(bytes, at, length);
    this.#slots[slot] = s;
    return s;
  }
}

/** A new string of the ASCII `bytes[at, at + length)`; for short strings, cheaper than a call into Buffer's decoders. */
export function asciiText(bytes: Uint8Array, at: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(bytes[at + i]!);
  return s;
}

function sameAscii(s: string, bytes: Uint8Array, at: number, length: number): boolean {
  if (s.length !== length) return false;
  for (let i = 0; i < length; i++) if (s.charCodeAt(i) !== bytes[at + i]) return false;
  return true;
}
