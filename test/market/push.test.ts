import { describe, expect, it } from 'vitest';
import { PushSource, type PushInput } from '../../src/market/feeds/push.js';
import { RecordingSink } from './support/recording-sink.js';
import { VirtualTime } from './support/virtual-time.js';

const NOW = 1_700_000_000_000;

function started(): { source: PushSource; sink: RecordingSink } {
  const source = new PushSource(new Map([['EURUSD', 5], ['XAUUSD', 2], ['NIKKEI', 0]]), new VirtualTime(NOW));
  const sink = new RecordingSink();
  source.start(sink);
  return { source, sink };
}

describe('PushSource', () => {
  it('converts decimal prices to exact ticks and publishes the quote stamped now', () => {
    const { source, sink } = started();
    const result = source.push({ symbol: 'EURUSD', bid: 1.08011, ask: 1.0802 });
    const quote = { symbol: 'EURUSD', bid: 108011, ask: 108020, ts: NOW };
    expect(result).toEqual({ ok: true, quote });
    expect(sink.quotes).toEqual([quote]);
    expect(source.push({ symbol: 'NIKKEI', bid: 38000, ask: 38000 })).toMatchObject({ ok: true, quote: { bid: 38000, ask: 38000 } });
  });

  it('refuses bad input, names the field, and publishes nothing', () => {
    const { source, sink } = started();
    const refused = (input: PushInput): unknown => {
      const r = source.push(input);
      return r.ok ? 'accepted' : r.field;
    };
    expect(refused({ symbol: 'GBPUSD', bid: 1.27, ask: 1.2701 })).toBe('symbol');
    expect(refused({ bid: 1.27, ask: 1.2701 })).toBe('symbol');
    expect(refused({ symbol: 42, bid: 1.27, ask: 1.2701 })).toBe('symbol');
    expect(refused({ symbol: 'EURUSD', bid: 1.085105, ask: 1.0852 })).toBe('bid'); // 6 decimals at 5 digits: refused, not rounded
    expect(refused({ symbol: 'XAUUSD', bid: 2000.1, ask: 0.1 + 0.2 })).toBe('ask');
    expect(refused({ symbol: 'EURUSD', bid: 0, ask: 1.0852 })).toBe('bid');
    expect(refused({ symbol: 'EURUSD', bid: -1.085, ask: 1.0852 })).toBe('bid');
    expect(refused({ symbol: 'EURUSD', bid: '1.085', ask: 1.0852 })).toBe('bid');
    expect(refused({ symbol: 'EURUSD', bid: Number.NaN, ask: 1.0852 })).toBe('bid');
    expect(refused({ symbol: 'EURUSD', bid: 1.085, ask: Infinity })).toBe('ask');
    expect(refused({ symbol: 'EURUSD', bid: 1.085 })).toBe('ask');
    expect(refused({ symbol: 'EURUSD', bid: 1.0852, ask: 1.0851 })).toBe('ask');
    expect(refused({ symbol: 'NIKKEI', bid: 38000.5, ask: 38001 })).toBe('bid');
    expect(sink.quotes).toEqual([]);
  });

  it('accepts bid equal to ask', () => {
    const { source } = started();
    expect(source.push({ symbol: 'EURUSD', bid: 1.085, ask: 1.085 }).ok).toBe(true);
  });

  it('says the market is not running when it is stopped, after validating', () => {
    const { source, sink } = started();
    source.stop();
    expect(source.push({ symbol: 'EURUSD', bid: 1.085, ask: 1.0851 })).toEqual({ ok: false, field: null, message: 'the market is not running' });
    expect(source.push({ symbol: 'EURUSD', bid: 1.0851, ask: 1.085 })).toMatchObject({ ok: false, field: 'ask' });
    expect(sink.quotes).toEqual([]);
  });
});
