import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReplayFile, parseReplayCsv, ReplayFileError } from '../../src/market/feeds/replay-file.js';
import { ReplaySource, type ReplaySpeed } from '../../src/market/feeds/replay.js';
import { RecordingSink } from './support/recording-sink.js';
import { VirtualTime } from './support/virtual-time.js';

const DIGITS = new Map([['EURUSD', 5], ['USDJPY', 3]]);
const T0 = 1_700_000_000_000;
const START = Date.parse('2024-01-08T12:00:00Z');

const CSV = [
  'ts,symbol,bid,ask',
  `${T0},EURUSD,1.08500,1.08510`,
  `${T0 + 250},USDJPY,150.123,150.126`,
  '',
  `${T0 + 250},EURUSD,1.0851,1.0852`,
  `${T0 + 1000},EURUSD,1.086,1.0861`,
].join('\n');

function refusal(text: string): { line: number | null; message: string } {
  try {
    parseReplayCsv(text, '/data/ticks.csv', DIGITS);
  } catch (e) {
    if (e instanceof ReplayFileError) return { line: e.line, message: e.message };
    throw e;
  }
  throw new Error('accepted');
}

describe('parseReplayCsv', () => {
  it('reads rows as exact ticks, skipping the header and blank lines', () => {
    const tape = parseReplayCsv(CSV, 'ticks.csv', DIGITS);
    expect(tape.rows).toEqual([
      { ts: T0, symbol: 'EURUSD', bid: 108500, ask: 108510 },
      { ts: T0 + 250, symbol: 'USDJPY', bid: 150123, ask: 150126 },
      { ts: T0 + 250, symbol: 'EURUSD', bid: 108510, ask: 108520 },
      { ts: T0 + 1000, symbol: 'EURUSD', bid: 108600, ask: 108610 },
    ]);
  });

  it('needs no header and takes CRLF line ends and spaces around fields', () => {
    const tape = parseReplayCsv(`${T0}, EURUSD ,1.085,1.0851\r\n${T0 + 5},EURUSD,1.085,1.0851\r\n`, 'x.csv', DIGITS);
    expect(tape.rows).toHaveLength(2);
    expect(tape.rows[0]).toEqual({ ts: T0, symbol: 'EURUSD', bid: 108500, ask: 108510 });
  });

  it('refuses the first bad line with the file path and its line number', () => {
    const withBad = (line: string): string => ['ts,symbol,bid,ask', `${T0},EURUSD,1.085,1.0851`, line, `${T0 + 9},EURUSD,1.085,1.0851`].join('\n');
    expect(refusal(withBad(`${T0 + 1},GBPUSD,1.27,1.2701`))).toEqual({ line: 3, message: '/data/ticks.csv:3: symbol "GBPUSD" is not one the replay prices' });
    expect(refusal(withBad(`${T0 + 1},EURUSD,abc,1.0851`)).message).toMatch(/^\/data\/ticks\.csv:3: bid must be a positive price/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,1.085,1.085105`)).message).toMatch(/^\/data\/ticks\.csv:3: ask .*at most 5 decimals/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,0,1.0851`)).message).toMatch(/:3: bid must be a positive/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,-1.085,1.0851`)).message).toMatch(/:3: bid must be a positive/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,1.0852,1.0851`)).message).toMatch(/:3: ask 1.0851 is below bid 1.0852/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,1e0,1.0851`)).message).toMatch(/:3: bid/);
    expect(refusal(withBad(`1.7e12,EURUSD,1.085,1.0851`)).message).toMatch(/:3: ts must be Unix milliseconds/);
    expect(refusal(withBad(`${T0 - 1},EURUSD,1.085,1.0851`)).message).toMatch(/:3: ts \d+ is earlier than the previous row's \d+/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,1.085`)).message).toMatch(/:3: expected 4 fields/);
    expect(refusal(withBad(`${T0 + 1},EURUSD,1.085,1.0851,7`)).message).toMatch(/:3: expected 4 fields/);
  });

  it('counts blank lines in the line number', () => {
    expect(refusal(`\n\n${T0},EURUSD,1.085,1.0851\n\nnonsense`).line).toBe(5);
  });

  it('refuses a file without quotes', () => {
    expect(refusal('ts,symbol,bid,ask\n\n')).toEqual({ line: null, message: '/data/ticks.csv: no quotes in the file' });
  });
});

describe('loadReplayFile', () => {
  let dir = '';
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'tas-replay-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('reads and validates a file, naming it in errors', async () => {
    const good = join(dir, 'good.csv');
    await writeFile(good, CSV);
    expect((await loadReplayFile(good, DIGITS)).rows).toHaveLength(4);
    const bad = join(dir, 'bad.csv');
    await writeFile(bad, `${CSV}\n${T0 + 2000},XAUUSD,2000,2001\n`);
    await expect(loadReplayFile(bad, DIGITS)).rejects.toThrow(`${bad}:7: symbol "XAUUSD" is not one the replay prices`);
    await expect(loadReplayFile(join(dir, 'missing.csv'), DIGITS)).rejects.toThrow(/missing\.csv: cannot read/);
  });
});

function replay(speed: ReplaySpeed, batchRows?: number): { time: VirtualTime; sink: RecordingSink; source: ReplaySource } {
  const time = new VirtualTime(START);
  const sink = new RecordingSink();
  const source = new ReplaySource({ tape: parseReplayCsv(CSV, 'ticks.csv', DIGITS), speed, clock: time, scheduler: time, ...(batchRows ? { batchRows } : {}) });
  source.start(sink);
  return { time, sink, source };
}

describe('ReplaySource', () => {
  it('keeps the gaps relative to the first row and stamps rows with the publish time', async () => {
    const { time, sink, source } = replay(1);
    expect(sink.quotes).toEqual([]); // nothing from start() itself
    time.advanceBy(0);
    expect(sink.quotes).toEqual([{ symbol: 'EURUSD', bid: 108500, ask: 108510, ts: START }]);
    time.advanceBy(249);
    expect(sink.quotes).toHaveLength(1);
    time.advanceBy(1);
    expect(sink.quotes.slice(1)).toEqual([
      { symbol: 'USDJPY', bid: 150123, ask: 150126, ts: START + 250 },
      { symbol: 'EURUSD', bid: 108510, ask: 108520, ts: START + 250 },
    ]);
    time.advanceBy(749);
    expect(sink.quotes).toHaveLength(3);
    time.advanceBy(1);
    expect(sink.quotes.at(-1)).toEqual({ symbol: 'EURUSD', bid: 108600, ask: 108610, ts: START + 1000 });
    await source.done;
    expect(source.published).toBe(4);
    expect(time.pending()).toBe(0);
  });

  it('divides the gaps by the speed', () => {
    const { time, sink } = replay(4);
    time.runAll();
    expect(sink.quotes.map((q) => q.ts - START)).toEqual([0, 63, 63, 250]); // whole ms, never early
  });

  it('plays everything without waiting at speed "max", at most batchRows per timer turn', async () => {
    const { time, sink, source } = replay('max', 3);
    expect(time.runNext()).toBe(true);
    expect(sink.quotes).toHaveLength(3);
    expect(time.runNext()).toBe(true);
    expect(sink.quotes).toHaveLength(4);
    expect(time.runNext()).toBe(false);
    expect(sink.quotes.every((q) => q.ts === START)).toBe(true);
    await source.done;
  });

  it('catches up on rows that fell due while the loop was busy, batchRows per turn', () => {
    const time = new VirtualTime(START);
    let lagMs = 0; // how late the timers fire behind the clock
    const clock = { nowMs: () => time.nowMs() + lagMs };
    const sink = new RecordingSink();
    const source = new ReplaySource({ tape: parseReplayCsv(CSV, 'ticks.csv', DIGITS), speed: 1, clock, scheduler: time, batchRows: 2 });
    source.start(sink);
    lagMs = 5000;
    expect(time.runNext()).toBe(true);
    expect(sink.quotes).toHaveLength(2);
    expect(time.runNext()).toBe(true);
    expect(sink.quotes.map((q) => q.ts - START)).toEqual([5000, 5000, 5000, 5000]);
    expect(time.runNext()).toBe(false);
  });

  it('stops on stop(): no more rows, done settles, a second start does nothing', async () => {
    const { time, sink, source } = replay(1);
    time.advanceBy(300);
    source.stop();
    await source.done;
    source.start(sink);
    time.advanceBy(5000);
    expect(sink.quotes).toHaveLength(3);
    expect(time.pending()).toBe(0);
  });

  it('refuses a speed that is not positive', () => {
    const time = new VirtualTime(0);
    const tape = parseReplayCsv(CSV, 'ticks.csv', DIGITS);
    for (const speed of [0, -1, Number.NaN, Infinity]) {
      expect(() => new ReplaySource({ tape, speed, clock: time, scheduler: time })).toThrow(/speed/);
    }
  });
});
