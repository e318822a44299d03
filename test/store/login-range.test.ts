// Every range scan over one account's keys (client ids at load, retention and resharding) covers
// exactly that account's keys, whatever the second key part is: keys sort by their UTF-8 bytes, so
// client ids at the edges of the code space (U+FFFF, astral code points, emoji) must be found as
// surely as ASCII ones, and a neighbouring login's keys never are.
import { describe, expect, it } from 'vitest';
import { loadShardState } from '../../src/store/account-loader.js';
import { pruneHistory } from '../../src/store/retention.js';
import { checkpointOf, loginRange, type ShardStore } from '../../src/store/store.js';
import { shardStores } from '../support/shard-stores.js';

const EDGES = ['', 'a', '~', '\u007f', '\u0080', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '😀', '😀x', '\u{10ffff}', '\u{10ffff}\u{10ffff}'];
const LOGIN = '100001';
/** Logins that sort right next to LOGIN: as a prefix, with a byte after it, and one above. */
const NEIGHBOURS = ['10000', '1000010', '100001\u0000', '100001 ', '100002', '100001\uffff'];

const stores = shardStores('tas-range-');
const store = (): ShardStore => stores.open();

const account = (login: string) => ({
  login, user: 'u', type: 'demo' as const, group: 'g', currency: 'USD', leverage: 100, server: 's', balance: 0, margin: 0, seq: 0,
  accountHalted: false, userHalted: false,
});

describe('ranges over a login prefix', () => {
  it('find every client id of the account, at any code point, and no other account\'s', () => {
    const s = store();
    s.root.transactionSync(() => {
      for (const login of [LOGIN, ...NEIGHBOURS]) {
        s.accounts.putSync(login, account(login));
        EDGES.forEach((cid, i) => s.clientIds.putSync([login, cid === '' ? `${login}-empty` : cid], { orderId: String(i + 1), atMs: 1000 + i }));
      }
    });
    const mine = [...loginRange(s.clientIds, LOGIN)].map((e) => e.key);
    expect(mine.every((k) => k[0] === LOGIN)).toBe(true);
    expect(mine.map((k) => k[1]).sort()).toEqual(EDGES.map((c) => (c === '' ? `${LOGIN}-empty` : c)).sort());
    // Loading the shard keeps every one of them for dedup.
    const state = loadShardState(s, 0, checkpointOf(s), 0);
    expect(state.clientIds.filter((c) => c.login === LOGIN)).toHaveLength(EDGES.length);
    for (const login of NEIGHBOURS) expect(state.clientIds.filter((c) => c.login === login)).toHaveLength(EDGES.length);
  });

  it('let retention remove expired client ids at every code point', async () => {
    const s = store();
    s.root.transactionSync(() => {
      s.accounts.putSync(LOGIN, account(LOGIN));
      EDGES.slice(1).forEach((cid, i) => s.clientIds.putSync([LOGIN, cid], { orderId: String(i + 1), atMs: 1000 }));
    });
    expect(await pruneHistory(s, 0, 2000, () => Promise.resolve())).toEqual({ events: 0, clientIds: EDGES.length - 1 });
    expect([...loginRange(s.clientIds, LOGIN)]).toEqual([]);
  });
});
