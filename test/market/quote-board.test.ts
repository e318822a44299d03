import { describe, expect, it } from 'vitest';
import { QuoteBoard, type QuoteCell } from '../../src/market/quote-board.js';

const SYMBOLS = ['EURUSD', 'USDJPY', 'BTCUSD'];

describe('QuoteBoard (one thread)', () => {
  it('reads back what was written, per symbol, and null before the first write', () => {
    const board = QuoteBoard.create(SYMBOLS);
    expect(board.read('EURUSD')).toBeNull();
    board.write({ symbol: 'EURUSD', bid: 108500, ask: 108510, ts: 1_700_000_000_000 });
    board.write({ symbol: 'BTCUSD', bid: 6_543_210, ask: 6_543_310, ts: 1_700_000_000_001 });
    expect(board.read('EURUSD')).toEqual({ symbol: 'EURUSD', bid: 108500, ask: 108510, ts: 1_700_000_000_000 });
    expect(board.read('BTCUSD')).toEqual({ symbol: 'BTCUSD', bid: 6_543_210, ask: 6_543_310, ts: 1_700_000_000_001 });
    expect(board.read('USDJPY')).toBeNull();
    expect(board.read('XAUUSD')).toBeNull();
  });

  it('is exact for integers up to 2^53, across the 32-bit word boundary', () => {
    const board = QuoteBoard.create(SYMBOLS);
    for (const v of [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 52 + 3, Number.MAX_SAFE_INTEGER, -1, -(2 ** 32) - 5, Number.MIN_SAFE_INTEGER]) {
      board.write({ symbol: 'USDJPY', bid: v, ask: v, ts: v });
      expect(board.read('USDJPY')).toEqual({ symbol: 'USDJPY', bid: v, ask: v, ts: v });
    }
  });

  it('refuses values it could not store exactly and symbols it does not carry', () => {
    const board = QuoteBoard.create(SYMBOLS);
    expect(() => board.write({ symbol: 'EURUSD', bid: 1.5, ask: 2, ts: 0 })).toThrow(RangeError);
    expect(() => board.write({ symbol: 'EURUSD', bid: 2 ** 53, ask: 2 ** 53, ts: 0 })).toThrow(RangeError);
    expect(() => board.write({ symbol: 'EURUSD', bid: 1, ask: 2, ts: Number.NaN })).toThrow(RangeError);
    expect(() => board.write({ symbol: 'XAUUSD', bid: 1, ask: 2, ts: 0 })).toThrow(RangeError);
    expect(board.read('EURUSD')).toBeNull();
    expect(board.version()).toBe(0);
  });

  it('counts writes in version', () => {
    const board = QuoteBoard.create(SYMBOLS);
    expect(board.version()).toBe(0);
    board.write({ symbol: 'EURUSD', bid: 1, ask: 2, ts: 3 });
    board.write({ symbol: 'USDJPY', bid: 1, ask: 2, ts: 3 });
    expect(board.version()).toBe(2);
  });

  it('readInto fills a reused cell and leaves it alone for an empty slot', () => {
    const board = QuoteBoard.create(SYMBOLS);
    board.writeAt(2, 10, 12, 99);
    const cell: QuoteCell = { bid: -1, ask: -1, ts: -1 };
    expect(board.readInto(0, cell)).toBe(false);
    expect(cell).toEqual({ bid: -1, ask: -1, ts: -1 });
    expect(board.readInto(2, cell)).toBe(true);
    expect(cell).toEqual({ bid: 10, ask: 12, ts: 99 });
    expect(() => board.readInto(3, cell)).toThrow(RangeError);
    expect(() => board.readInto(-1, cell)).toThrow(RangeError);
    expect(() => board.readInto(0.5, cell)).toThrow(RangeError);
  });

  it('a reader attached to the same buffer sees the writer\'s quotes and version', () => {
    const writer = QuoteBoard.create(SYMBOLS);
    const reader = QuoteBoard.attach(writer.sab, [...SYMBOLS]);
    writer.write({ symbol: 'USDJPY', bid: 15_012, ask: 15_015, ts: 5 });
    expect(reader.read('USDJPY')).toEqual({ symbol: 'USDJPY', bid: 15_012, ask: 15_015, ts: 5 });
    expect(reader.version()).toBe(1);
    expect(reader.indexOf('USDJPY')).toBe(1);
    expect('write' in reader).toBe(false);
  });

  it('refuses to attach with another symbol list or a foreign buffer', () => {
    const writer = QuoteBoard.create(SYMBOLS);
    expect(() => QuoteBoard.attach(writer.sab, ['USDJPY', 'EURUSD', 'BTCUSD'])).toThrow(/not created for this symbol list/);
    expect(() => QuoteBoard.attach(writer.sab, ['EURUSD', 'USDJPY'])).toThrow(/not created for this symbol list/);
    expect(() => QuoteBoard.attach(new SharedArrayBuffer(writer.sab.byteLength), SYMBOLS)).toThrow(/not created for this symbol list/);
  });

  it('refuses duplicate or empty symbol names', () => {
    expect(() => QuoteBoard.create(['EURUSD', 'EURUSD'])).toThrow(/twice/);
    expect(() => QuoteBoard.create([''])).toThrow(/non-empty/);
  });

  it('keeps working when a slot sequence wraps past 2^31 (0 stays "never written")', () => {
    const board = QuoteBoard.create(SYMBOLS);
    const words = new Int32Array(board.sab);
    const seqWord = 16 + 16 * 1; // slot 1, documented layout
    words[seqWord] = -2; // as if 2^31 writes had happened
    board.write({ symbol: 'USDJPY', bid: 7, ask: 8, ts: 9 });
    expect(words[seqWord]).toBe(2);
    expect(board.read('USDJPY')).toEqual({ symbol: 'USDJPY', bid: 7, ask: 8, ts: 9 });
    board.write({ symbol: 'USDJPY', bid: 10, ask: 11, ts: 12 });
    expect(words[seqWord]).toBe(4);
    expect(board.read('USDJPY')).toEqual({ symbol: 'USDJPY', bid: 10, ask: 11, ts: 12 });
  });
});
