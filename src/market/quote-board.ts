// The latest quote of every symbol in one SharedArrayBuffer, readable from any thread without a
// message. One writer (the main thread's Market), any number of readers (FIX thread, shards).
//
// Layout, all Int32 words; 16 words = 64 bytes = one cache line per slot, so the writer dirtying
// one symbol's line never invalidates the line a reader is polling for another symbol:
//
//   word  0 ..15   header   [0] version  [1] slot count  [2] symbol-list fingerprint  [3] layout tag
//   word 16 ..31   slot 0   [0] seq  [1] bid hi  [2] bid lo  [3] ask hi  [4] ask lo  [5] ts hi  [6] ts lo
//   word 32 ..47   slot 1   ...                                                          [7..15] unused
//
// Each value is an integer of at most 53 bits split as hi = floor(v / 2^32), lo = v mod 2^32.
//
// Seqlock, memory ordering. EVERY access to a slot is an Atomics operation, and Atomics are
// sequentially consistent in the JS memory model, so all of them fall into one total order that
// respects each thread's program order. The writer stores seq+1 (odd), then the six value words,
// then seq+2 (even), then bumps the header version. A reader loads seq (s1), the six words, then seq
// again (s2), and keeps the values only if s1 is even and s2 === s1: if any value load had seen a
// word of a later write, that write's odd store precedes it in the total order, hence precedes the
// second seq load, which would then not equal s1. Plain (non-atomic) data words would not be enough:
// on ARM a release store of seq does not keep later plain stores from becoming visible before it.
// The version is stored after the slot's final seq, so a reader that sees version v also sees
// every slot write counted by v. seq 0 means "never written"; wrap-around skips it.
import type { Quote, Ticks, UnixMs } from '../engine/types.js';

const WORDS_PER_SLOT = 16;
const HEADER_WORDS = 16;
const VERSION = 0;
const SLOT_COUNT = 1;
const FINGERPRINT = 2;
const LAYOUT = 3;
/** Bumped whenever the layout changes, so a stale worker build cannot misread a newer board. */
const LAYOUT_TAG = 0x51b0_0001;
const SEQ = 0;
const BID = 1;
const ASK = 3;
const TS = 5;
const TWO_POW_32 = 4294967296;

/** Mutable destination of `readInto`, reused by hot readers to avoid an allocation per read. */
export interface QuoteCell { bid: Ticks; ask: Ticks; ts: UnixMs }

/** FNV-1a over the names, so attaching with a different symbol list fails loudly. */
function fingerprintOf(symbols: readonly string[]): number {
  let h = 0x811c9dc5;
  for (const name of symbols) {
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0x0a, 0x01000193);
  }
  return h | 0;
}

function byteLengthFor(slots: number): number {
  return (HEADER_WORDS + slots * WORDS_PER_SLOT) * Int32Array.BYTES_PER_ELEMENT;
}

function indexSymbols(symbols: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  symbols.forEach((name, i) => {
    if (typeof name !== 'string' || name === '') throw new TypeError(`quote board: symbol ${i} must be a non-empty string`);
    if (index.has(name)) throw new TypeError(`quote board: symbol ${name} is listed twice`);
    index.set(name, i);
  });
  return index;
}

/** A reader's view. Any thread may hold one; it never writes. */
export class QuoteBoard {
  protected readonly words: Int32Array;
  protected readonly index: ReadonlyMap<string, number>;

  protected constructor(readonly sab: SharedArrayBuffer, readonly symbols: readonly string[]) {
    this.words = new Int32Array(sab);
    this.index = indexSymbols(symbols);
  }

  /** A new, empty board and its only writer. Pass `sab` and `symbols` to other threads for `attach`. */
  static create(symbols: readonly string[]): QuoteBoardWriter {
    return new QuoteBoardWriter(symbols);
  }

  /** A reader over a board created elsewhere with the same symbol list (in the same order). */
  static attach(sab: SharedArrayBuffer, symbols: readonly string[]): QuoteBoard {
    const mismatch = new TypeError('quote board: the buffer was not created for this symbol list');
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength !== byteLengthFor(symbols.length)) throw mismatch;
    const board = new QuoteBoard(sab, symbols);
    const w = board.words;
    if (Atomics.load(w, LAYOUT) !== LAYOUT_TAG || Atomics.load(w, SLOT_COUNT) !== symbols.length
      || Atomics.load(w, FINGERPRINT) !== fingerprintOf(symbols)) throw mismatch;
    return board;
  }

  /** Slot of `symbol`, or -1 when the board does not carry it. */
  indexOf(symbol: string): number {
    return this.index.get(symbol) ?? -1;
  }

  /** Bumped after every write; poll it to learn cheaply that something changed. Wraps at 2^31. */
  version(): number {
    return Atomics.load(this.words, VERSION);
  }

  read(symbol: string): Quote | null {
    const i = this.index.get(symbol);
    if (i === undefined) return null;
    const cell: QuoteCell = { bid: 0, ask: 0, ts: 0 };
    return this.readInto(i, cell) ? { symbol, bid: cell.bid, ask: cell.ask, ts: cell.ts } : null;
  }

  /** Copies slot `index` into `out`; false (and `out` untouched) when the symbol has no quote yet. */
  readInto(index: number, out: QuoteCell): boolean {
    if (!(index >= 0 && index < this.symbols.length && Number.isInteger(index))) {
      throw new RangeError(`quote board: no slot ${index}`);
    }
    const w = this.words;
    const base = HEADER_WORDS + index * WORDS_PER_SLOT;
    for (;;) {
      const s1 = Atomics.load(w, base + SEQ);
      if ((s1 & 1) !== 0) continue; // the writer is inside its few stores; spin
      const bidHi = Atomics.load(w, base + BID);
      const bidLo = Atomics.load(w, base + BID + 1);
      const askHi = Atomics.load(w, base + ASK);
      const askLo = Atomics.load(w, base + ASK + 1);
      const tsHi = Atomics.load(w, base + TS);
      const tsLo = Atomics.load(w, base + TS + 1);
      if (Atomics.load(w, base + SEQ) !== s1) continue;
      if (s1 === 0) return false;
      out.bid = bidHi * TWO_POW_32 + (bidLo >>> 0);
      out.ask = askHi * TWO_POW_32 + (askLo >>> 0);
      out.ts = tsHi * TWO_POW_32 + (tsLo >>> 0);
      return true;
    }
  }
}

function storeInt53(w: Int32Array, at: number, value: number): void {
  const hi = Math.floor(value / TWO_POW_32);
  Atomics.store(w, at, hi);
  Atomics.store(w, at + 1, value - hi * TWO_POW_32); // ToInt32 keeps the low 32 bits
}

/** The single writer. Exactly one exists per board: the one `QuoteBoard.create` returned. */
export class QuoteBoardWriter extends QuoteBoard {
  /** Same as QuoteBoard.create: a new buffer, so each writer owns its own board. */
  constructor(symbols: readonly string[]) {
    super(new SharedArrayBuffer(byteLengthFor(symbols.length)), symbols);
    const w = this.words;
    Atomics.store(w, SLOT_COUNT, symbols.length);
    Atomics.store(w, FINGERPRINT, fingerprintOf(symbols));
    Atomics.store(w, LAYOUT, LAYOUT_TAG);
  }

  write(quote: Quote): void {
    const i = this.index.get(quote.symbol);
    if (i === undefined) throw new RangeError(`quote board: unknown symbol ${quote.symbol}`);
    this.writeAt(i, quote.bid, quote.ask, quote.ts);
  }

  writeAt(index: number, bid: Ticks, ask: Ticks, ts: UnixMs): void {
    if (!(index >= 0 && index < this.symbols.length && Number.isInteger(index))) {
      throw new RangeError(`quote board: no slot ${index}`);
    }
    if (!Number.isSafeInteger(bid) || !Number.isSafeInteger(ask) || !Number.isSafeInteger(ts)) {
      throw new RangeError(`quote board: bid, ask and ts must be safe integers, got ${bid}, ${ask}, ${ts}`);
    }
    const w = this.words;
    const base = HEADER_WORDS + index * WORDS_PER_SLOT;
    const seq = Atomics.load(w, base + SEQ); // only this thread stores it
    Atomics.store(w, base + SEQ, (seq + 1) | 0);
    storeInt53(w, base + BID, bid);
    storeInt53(w, base + ASK, ask);
    storeInt53(w, base + TS, ts);
    // Even again; 0 is reserved for "never written", so the wrap from -1 lands on 2.
    Atomics.store(w, base + SEQ, ((seq + 2) | 0) || 2);
    Atomics.store(w, VERSION, (Atomics.load(w, VERSION) + 1) | 0);
  }
}
