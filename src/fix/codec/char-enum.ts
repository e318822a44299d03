// One-character FIX enumerations (Side, OrdType, ...) as a table by character code, so checking
// an inbound value costs an array read instead of a Set lookup of a fresh string.
export class CharEnum<T extends string> {
  private readonly table = new Uint8Array(128);

  constructor(readonly values: readonly T[]) {
    for (const v of values) this.table[v.charCodeAt(0) & 0x7f] = 1;
  }

  has(code: number): boolean {
    return code < 128 && this.table[code] === 1;
  }
}

/** The CharEnum of a dictionary enumeration such as Side. */
export function charEnum<T extends string>(e: Readonly<Record<string, T>>): CharEnum<T> {
  return new CharEnum(Object.values(e));
}
