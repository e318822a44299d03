// Live P&L of an account with more open positions than one report carries: reports take turns
// through its positions, each at most LIVE_POSITIONS_PER_REPORT long, until every moved position has
// been reported once, and the turn goes on without waiting for another tick.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { LivePnl } from '../../src/shard/live-pnl.js';
import type { ShardOutbound } from '../../src/shard/protocol.js';
import { account, init, ok, place, tick, WED_NOON } from '../engine/fixtures.js';

const PER_REPORT = 500;
const POSITIONS = 1200;

function tickets(report: ShardOutbound | null): number[] {
  if (report === null || report.t !== 'live') return [];
  return report.accounts.flatMap((a) => a.positions.map((p) => p.ticket));
}

describe('live P&L of a big account', () => {
  it('reports at most a bounded number of positions at a time, in turns that cover every moved position once', () => {
    const e = new Engine(init({ accounts: [account('big', 'USD', 1_000_000_000)] }));
    for (let i = 0; i < POSITIONS; i++) ok(e.apply(place('big', 'EURUSD', 'buy', 1), WED_NOON), 'place');
    const live = new LivePnl(0, e, ['EURUSD'], 100, PER_REPORT);
    live.want('big', true);
    e.apply(tick('EURUSD', 108_600, 108_610), WED_NOON);

    const first = tickets(live.sweep(1_000));
    expect(live.sweep(1_050)).toBeNull();
    const second = tickets(live.sweep(1_100));
    const third = tickets(live.sweep(1_200));
    expect([first.length, second.length, third.length]).toEqual([PER_REPORT, PER_REPORT, POSITIONS - 2 * PER_REPORT]);
    const all = [...first, ...second, ...third];
    expect(new Set(all).size).toBe(POSITIONS);
    expect(new Set(all)).toEqual(new Set(e.account('big')!.positions.map((p) => p.ticket)));
    // Every position is up to date and no price moved: nothing more to say.
    expect(live.sweep(1_300)).toBeNull();

    e.apply(tick('EURUSD', 108_700, 108_710), WED_NOON);
    expect(tickets(live.sweep(1_400))).toHaveLength(PER_REPORT);
    // A turn left unfinished is dropped with the subscription: a new one waits for a tick.
    live.want('big', false);
    live.want('big', true);
    expect(live.sweep(1_500)).toBeNull();
  });
});
