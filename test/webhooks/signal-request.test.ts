// The signal body: shapes (400), allowed symbols (403), order values (422), and what the webhook's
// sizing rules need from an opening signal, all before anything trades.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/gateway/errors.js';
import { parseSignal, signalComment } from '../../src/gateway/webhooks/signal-request.js';
import type { LiveWebhook } from '../../src/gateway/webhooks/webhook-book.js';
import type { Sizing, SymbolSpec } from '../../src/engine/types.js';

const EURUSD: SymbolSpec = { name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' };
const GBPUSD: SymbolSpec = { ...EURUSD, name: 'GBPUSD', baseCurrency: 'GBP' };
const SYMBOLS = new Map([[EURUSD.name, EURUSD], [GBPUSD.name, GBPUSD]]);

function hookWith(...sizings: Sizing[]): LiveWebhook {
  return {
    record: {
      id: 'wh1', user: 'u1', sealedSecret: 'unused', symbols: ['EURUSD'], paused: false, createdAt: 0,
      targets: sizings.map((sizing, i) => ({ login: String(100 + i), sizing })),
    },
    secret: Buffer.from('s'),
    secretDigest: Buffer.alloc(32),
  };
}

const fixed = hookWith({ type: 'fixed', lots: 10 });
const all = hookWith({ type: 'fixed', lots: 10 }, { type: 'multiplier', factor: 2 }, { type: 'risk_percent', percent: 1 });

function refusal(body: Record<string, unknown>, hook = fixed): { name: string; field: string | undefined } {
  try {
    parseSignal(body, hook, SYMBOLS);
  } catch (err) {
    if (err instanceof ApiError) return { name: err.errorName, field: err.field };
    throw err;
  }
  throw new Error('accepted');
}

describe('parseSignal', () => {
  it('reads an opening signal into engine units', () => {
    const s = parseSignal({ secret: 'x', action: 'sell', symbol: 'EURUSD', volume: 0.03, sl: 1.1055, tp: 1.095, comment: 'c1' }, all, SYMBOLS);
    expect(s).toMatchObject({ action: 'sell', volume: 3, sl: 110_550, tp: 109_500, comment: 'c1' });
    expect(s.symbol.name).toBe('EURUSD');
    expect(parseSignal({ action: 'close_all', symbol: 'EURUSD' }, all, SYMBOLS)).toMatchObject({ action: 'close_all', volume: null, comment: null });
  });

  it.each([
    [{ symbol: 'EURUSD' }, 'bad_request', 'action'],
    [{ action: 'hold', symbol: 'EURUSD' }, 'bad_request', 'action'],
    [{ action: 'buy' }, 'bad_request', 'symbol'],
    [{ action: 'buy', symbol: 7 }, 'bad_request', 'symbol'],
    [{ action: 'buy', symbol: 'GBPUSD' }, 'forbidden', 'symbol'],
    [{ action: 'buy', symbol: 'XXXYYY' }, 'forbidden', 'symbol'],
    [{ action: 'buy', symbol: 'EURUSD', volume: '1' }, 'bad_request', 'volume'],
    [{ action: 'buy', symbol: 'EURUSD', volume: 0.015 }, 'invalid_order', 'volume'],
    [{ action: 'buy', symbol: 'EURUSD', volume: -1 }, 'invalid_order', 'volume'],
    [{ action: 'buy', symbol: 'EURUSD', sl: 1.123456 }, 'invalid_order', 'sl'],
    [{ action: 'buy', symbol: 'EURUSD', tp: 'high' }, 'bad_request', 'tp'],
    [{ action: 'close', symbol: 'EURUSD', sl: 1.1 }, 'bad_request', 'sl'],
    [{ action: 'close_all', symbol: 'EURUSD', volume: 1 }, 'bad_request', 'volume'],
    [{ action: 'buy', symbol: 'EURUSD', comment: 'x'.repeat(33) }, 'bad_request', 'comment'],
    [{ action: 'buy', symbol: 'EURUSD', comment: 5 }, 'bad_request', 'comment'],
    [{ action: 'buy', symbol: 'EURUSD', ticker: 'EURUSD' }, 'bad_request', 'ticker'],
  ])('refuses %j as %s on %s', (body, name, field) => {
    expect(refusal(body)).toEqual({ name, field });
  });

  it('refuses an opening signal that a target cannot size, whatever the others could do', () => {
    expect(refusal({ action: 'buy', symbol: 'EURUSD', sl: 1.09, tp: 1.2 }, all)).toEqual({ name: 'bad_request', field: 'volume' });
    expect(refusal({ action: 'buy', symbol: 'EURUSD', volume: 1, tp: 1.2 }, all)).toEqual({ name: 'bad_request', field: 'sl' });
    expect(refusal({ action: 'buy', symbol: 'EURUSD', volume: 1, sl: 1.09 }, all)).toEqual({ name: 'bad_request', field: 'tp' });
    // Closing needs none of it.
    expect(parseSignal({ action: 'close', symbol: 'EURUSD' }, all, SYMBOLS).volume).toBeNull();
  });

  it('reads the comment on its own (the dedup key comes first)', () => {
    expect(signalComment({ comment: 'a'.repeat(32) })).toBe('a'.repeat(32));
    expect(signalComment({ comment: '' })).toBeNull();
    expect(signalComment({})).toBeNull();
    expect(() => signalComment({ comment: 'a'.repeat(33) })).toThrow(ApiError);
  });
});
