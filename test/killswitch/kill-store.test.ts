// The kill switch journal's reports in LMDB: stored as the answer's JSON text and read back whole,
// and entries stored by earlier builds (the report in msgpackr pages, or inline) still read as they were.
import { afterEach, describe, expect, it } from 'vitest';
import { KillStore, armed } from '../../src/gateway/killswitch/kill-store.js';
import type { KillReport } from '../../src/gateway/killswitch/report.js';
import { openStore, type Store } from '../../src/store/store.js';
import { table } from '../../src/store/table.js';
import { tempDir } from '../support/server.js';

const stores: Store[] = [];
afterEach(async () => { for (const s of stores.splice(0)) await s.close(); });

function open(dir = tempDir()): Store {
  const store = openStore(dir, 'sync', 1);
  stores.push(store);
  return store;
}

function report(closes: number): KillReport {
  return {
    accounts: ['1', '2'],
    closed: Array.from({ length: closes }, (_, i) => ({
      login: String(1 + (i % 2)), ticket: i, status: 'closed', profit: -(i + 1), symbol: 'EURUSD', side: 'buy', source: 'api', volume: 0.01, close_price: 1.1,
    })),
    cancelled: [{ login: '1', id: '7', symbol: 'EURUSD', side: 'buy', type: 'limit', source: 'api', volume: 0.01 }],
    failed: [{ login: '2', ticket: null, error: { name: 'unavailable', message: 'the journal is unavailable' } }],
  };
}

describe('KillStore', () => {
  it('stores a report as its JSON text and gives it back whole, in order, after a reopen', async () => {
    const dir = tempDir();
    const kills = new KillStore(open(dir));
    const entry = await kills.record({ ...armed('u', 1), state: 'Triggered' }, { atMs: 1, action: 'trigger', actor: 'operator', state: 'Triggered', report: null });
    expect(kills.history('u', 10)[0]!.report).toBeNull();
    const big = report(6_001);
    await kills.report('u', entry, JSON.stringify(big));
    expect(kills.history('u', 10)[0]!.report).toEqual(big);
    await stores.pop()!.close();
    expect(new KillStore(open(dir)).history('u', 10)).toEqual([{ ...entry, report: big }]);
  });

  it('reads a report stored in msgpackr pages of 2,500 entries, joined in page order', async () => {
    const dir = tempDir();
    const big = report(6_001);
    const entry = { seq: 1, atMs: 1, action: 'trigger', actor: 'operator', state: 'Triggered', report: null };
    const writer = open(dir);
    const pages = table<[string, number, number], KillReport>('kill_switch_report');
    for (let page = 0; page < 3; page++) {
      const [from, to] = [page * 2500, (page + 1) * 2500];
      await writer.table(pages).put(['u', 1, page], {
        accounts: big.accounts.slice(from, to), closed: big.closed.slice(from, to), cancelled: big.cancelled.slice(from, to), failed: big.failed.slice(from, to),
      });
    }
    await writer.table(table<[string, number], typeof entry & { pages: number }>('kill_switch_log')).put(['u', 1], { ...entry, pages: 3 });
    await stores.pop()!.close();
    expect(new KillStore(open(dir)).history('u', 10)).toEqual([{ ...entry, report: big }]);
  });

  it('reads an entry stored with its report inline', async () => {
    const dir = tempDir();
    const inline = { seq: 1, atMs: 1, action: 'trigger', actor: 'operator', state: 'Triggered', report: report(3) };
    const writer = open(dir);
    await writer.table(table<[string, number], typeof inline>('kill_switch_log')).put(['u', 1], inline);
    await stores.pop()!.close();
    expect(new KillStore(open(dir)).history('u', 10)).toEqual([inline]);
  });
});
