// The REST JSON builders of wire.ts: the cached position text is exactly JSON.stringify of the
// position object, for any record and profit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionRecord, SymbolSpec } from '../../src/engine/types.js';
import { accountDetailJson, accountItemJson, positionJson, positionJsonText } from '../../src/gateway/wire.js';

const symbol = (digits: number): SymbolSpec => ({ name: 'X', digits, contractSize: 1, maxVolume: 100, baseCurrency: null, quoteCurrency: 'USD', session: '24x7' });

const position: fc.Arbitrary<PositionRecord> = fc.record({
  ticket: fc.integer({ min: 1, max: 2 ** 40 }),
  login: fc.string({ maxLength: 20 }),
  symbol: fc.string({ maxLength: 16 }),
  side: fc.constantFrom('buy' as const, 'sell' as const),
  volume: fc.integer({ min: 1, max: 10_000 }),
  openPrice: fc.integer({ min: 1, max: 2 ** 45 }),
  sl: fc.option(fc.integer({ min: 1, max: 2 ** 45 })),
  tp: fc.option(fc.integer({ min: 1, max: 2 ** 45 })),
  source: fc.constantFrom('manual' as const, 'api' as const, 'webhook' as const),
  keyId: fc.option(fc.string({ maxLength: 30 })),
  webhookId: fc.constant(null),
  orderId: fc.constant('1'),
  margin: fc.integer({ min: 0, max: 1e9 }),
  openedAt: fc.integer({ min: 0, max: 4e12 }),
});

describe('positionJsonText', () => {
  it('is JSON.stringify(positionJson(...)) for any record and profit, also from its cache', () => {
    fc.assert(fc.property(position, fc.integer({ min: 0, max: 8 }), fc.array(fc.option(fc.integer({ min: -1e12, max: 1e12 })), { minLength: 1, maxLength: 3 }), (p, digits, profits) => {
      for (const profit of profits) {
        const text = positionJsonText(p, symbol(digits), profit);
        expect(text).toBe(JSON.stringify(positionJson(p, symbol(digits), profit)));
        expect(JSON.parse(text).profit).toBe(profit === null ? null : profit / 100);
      }
    }));
  });

  it('keeps a key id that looks like the profit key intact', () => {
    const p: PositionRecord = {
      ticket: 7, login: '1', symbol: 'X', side: 'buy', volume: 1, openPrice: 1, sl: null, tp: null, source: 'api',
      keyId: '"profit":null', webhookId: null, orderId: '1', margin: 0, openedAt: 0,
    };
    expect(JSON.parse(positionJsonText(p, symbol(2), 150))).toMatchObject({ profit: 1.5, key_id: '"profit":null' });
  });
});

describe('account JSON', () => {
  it('shows money as decimals and the spec\'s fields', () => {
    const a = { login: '1', user: 'u', type: 'live' as const, group: 'real\\ECN', currency: 'EUR', leverage: 30, server: 'S', balance: 123456, margin: 1000, seq: 0, accountHalted: false, userHalted: false };
    const m = { balance: 123456, equity: 123400, margin: 1000, freeMargin: 122400, marginLevel: 12340 };
    expect(accountItemJson(a, m)).toEqual({
      login: '1', type: 'live', group: 'real\\ECN', currency: 'EUR', balance: 1234.56, equity: 1234, margin: 10, free_margin: 1224, margin_level: 12340, leverage: 30,
    });
    expect(accountDetailJson(a, m)).toMatchObject({ login: '1', server: 'S', equity: 1234, free_margin: 1224, margin_level: 12340 });
  });
});
