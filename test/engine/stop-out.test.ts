// Stop-out: unit cases and properties. Equity is conserved by a stop-out (closing at the current
// price moves floating profit into the balance unchanged), and after every tick an account that
// still holds positions is at or above its group's stop-out level.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import type { EngineInit, MarginPolicy, Side } from '../../src/engine/types.js';
import { account, init, ok, place, tick, WED_NOON } from './fixtures.js';

const POLICY: MarginPolicy = {
  defaults: { marginCallPercent: 100, stopOutPercent: 50 },
  groups: [{ group: 'strict', marginCallPercent: 150, stopOutPercent: 120 }, { group: 'never', marginCallPercent: 0, stopOutPercent: 0 }],
};

/** Thin accounts: 1,000.00 of balance at 1:100, so a few lots move them near stop-out. */
function thin(over: Partial<EngineInit> = {}): EngineInit {
  return init({
    accounts: [account('usd1', 'USD', 100_000), account('eur1', 'EUR', 100_000), account('strict', 'USD', 100_000, { group: 'strict' }), account('never', 'USD', 100_000, { group: 'never' })],
    marginPolicy: POLICY,
    ...over,
  });
}

const levelOf = (e: Engine, login: string): number => e.metrics(login)?.marginLevel ?? Number.NaN;

describe('stop-out', () => {
  it('closes the most losing position first, only until the level is back at or above the stop-out level', () => {
    const e = new Engine(thin());
    // Margins: 0.3 lot EURUSD 300 EUR ≈ 325.50 USD, 0.2 lot ≈ 217 USD, 0.1 lot US500 ≈ 47 USD.
    const a = ok(e.apply(place('usd1', 'EURUSD', 'buy', 30), WED_NOON), 'place').position!;
    const b = ok(e.apply(place('usd1', 'EURUSD', 'buy', 20), WED_NOON), 'place').position!;
    const c = ok(e.apply(place('usd1', 'US500', 'buy', 10), WED_NOON), 'place').position!;
    expect(levelOf(e, 'usd1')).toBeGreaterThan(100);
    // EURUSD falls 0.0150: equity ≈ 245 of margin ≈ 590 (41%); closing the 0.3 lot (losing most) leaves ≈ 92%.
    const o = e.apply(tick('EURUSD', 107_000, 107_010), WED_NOON);
    const closes = o.events.flatMap((ev) => (ev.type === 'position' && ev.status === 'closed' ? [ev] : []));
    expect(closes.length).toBeGreaterThan(0);
    expect(closes.map((ev) => [ev.position.ticket, ev.reason])).toEqual([[a.ticket, 'stop_out']]);
    expect(e.account('usd1')!.positions.map((p) => p.ticket)).toEqual([b.ticket, c.ticket]);
    expect(levelOf(e, 'usd1')).toBeGreaterThanOrEqual(50);
  });

  it('uses the account group\'s levels: a group at 0 is never stopped out, a strict group sooner', () => {
    const e = new Engine(thin());
    for (const login of ['usd1', 'never']) ok(e.apply(place(login, 'EURUSD', 'buy', 80), WED_NOON), 'place');
    // Margin 651 of equity 994 (152%): above the strict group's 120%.
    ok(e.apply(place('strict', 'EURUSD', 'buy', 60), WED_NOON), 'place');
    // An order that would take it below 120% is refused rather than stopped out at once.
    expect(e.apply(place('strict', 'EURUSD', 'buy', 30), WED_NOON).result).toMatchObject({ ok: false, name: 'invalid_order', field: 'volume' });
    // A 0.0036 fall: strict ≈ 776 / 651 (119%) is stopped out, usd1 ≈ 704 / 868 (81%) is not.
    e.apply(tick('EURUSD', 108_140, 108_150), WED_NOON);
    expect(e.account('strict')!.positions).toHaveLength(0);
    expect(e.account('usd1')!.positions).toHaveLength(1);
    e.apply(tick('EURUSD', 100_000, 100_010), WED_NOON);
    expect(e.account('usd1')!.positions).toHaveLength(0);
    expect(e.account('never')!.positions).toHaveLength(1);
  });

  it('watches positions whose profit converts through the ticked pair (USDJPY held by a EUR account moves with EURUSD)', () => {
    const e = new Engine(thin());
    ok(e.apply(place('eur1', 'USDJPY', 'sell', 60), WED_NOON), 'place');
    const before = levelOf(e, 'eur1');
    // USDJPY rises: the short loses in JPY; no stop-out yet at this EURUSD.
    e.apply(tick('USDJPY', 151_100, 151_120), WED_NOON);
    expect(e.account('eur1')!.positions).toHaveLength(1);
    expect(levelOf(e, 'eur1')).toBeLessThan(before);
    // EURUSD halves: each USD lost is twice the EUR. Only EURUSD ticks now.
    const o = e.apply(tick('EURUSD', 50_000, 50_010), WED_NOON);
    expect(o.events.some((ev) => ev.type === 'position' && ev.reason === 'stop_out')).toBe(true);
  });

  it('a snapshot keeps the policy: the restored engine stops out the same', () => {
    const e = new Engine(thin());
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 80), WED_NOON), 'place');
    const restored = new Engine(e.snapshot());
    const crash = tick('EURUSD', 100_000, 100_010);
    expect(restored.apply(crash, WED_NOON)).toEqual(e.apply(crash, WED_NOON));
    expect(restored.snapshot()).toEqual(e.snapshot());
  });
});

const LOGINS = ['usd1', 'eur1', 'strict'] as const;
const SYMBOL = fc.constantFrom('EURUSD', 'USDJPY', 'US500');
const SIDE = fc.constantFrom<Side>('buy', 'sell');

type Step =
  | { readonly t: 'open'; readonly login: string; readonly symbol: string; readonly side: Side; readonly volume: number }
  | { readonly t: 'tick'; readonly symbol: string; readonly move: number; readonly spread: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('open' as const), login: fc.constantFrom(...LOGINS), symbol: SYMBOL, side: SIDE, volume: fc.integer({ min: 1, max: 60 }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('tick' as const), symbol: SYMBOL, move: fc.integer({ min: -3000, max: 3000 }), spread: fc.integer({ min: 0, max: 40 }) }) },
);

describe('stop-out properties', () => {
  it('equity is conserved by stop-out closes, and after a tick every account holding positions is at or above its stop-out level', () => {
    fc.assert(fc.property(fc.array(step, { minLength: 5, maxLength: 80 }), (steps) => {
      const e = new Engine(thin());
      for (const s of steps) {
        if (s.t === 'open') {
          e.apply(place(s.login, s.symbol, s.side, s.volume), WED_NOON);
          continue;
        }
        const q = e.quote(s.symbol)!;
        const bid = Math.max(1_000, q.bid + s.move);
        const cmd = tick(s.symbol, bid, bid + s.spread);
        // The same tick on a copy of the state without stop-out: the equity stop-out must leave.
        const bystander = new Engine({ ...e.snapshot(), marginPolicy: { defaults: { marginCallPercent: 0, stopOutPercent: 0 }, groups: [] } });
        bystander.apply(cmd, WED_NOON);
        e.apply(cmd, WED_NOON);
        for (const login of LOGINS) {
          expect(e.metrics(login)!.equity).toBe(bystander.metrics(login)!.equity);
          const m = e.metrics(login)!;
          if (m.margin > 0) expect(m.marginLevel).toBeGreaterThanOrEqual(e.marginLevels(login)!.stopOutPercent);
        }
      }
    }), { numRuns: 200 });
  });
});
