// The checkpoint's records in their binary form (src/store/record-codec.ts), through a real shard
// store: every record reads back as it was put, key for key and in key order (the JSON a client
// gets is built from them), whatever its strings and numbers; a table written before the codec
// (msgpack records with shared structures) still reads, beside values written after it; a value
// of a newer format is refused, naming its table and environment, not misread.
import fc from 'fast-check';
import { asBinary, open } from 'lmdb';
import { describe, expect, it } from 'vitest';
import { shardDir, type ShardStore } from '../../src/store/store.js';
import type { AccountRecord, EngineEvent } from '../../src/engine/types.js';
import { account, event, order, position } from '../support/records.js';
import { shardStores } from '../support/shard-stores.js';

const stores = shardStores('tas-codec-');
const dataDir = stores.dir;
const store = (dir = dataDir()): ShardStore => stores.open(dir);

/** Equal, and with the same keys in the same order all the way down. */
function expectSame(got: unknown, put: unknown): void {
  expect(got).toStrictEqual(put);
  expect(JSON.stringify(got)).toBe(JSON.stringify(put));
}

const loginOf = (e: EngineEvent): string => (e.type === 'order' ? e.order.login : e.position.login);

describe('checkpoint records', () => {
  it('read back as they were put, every kind, key for key', () => {
    const s = store();
    const clientId = fc.record({ orderId: fc.string(), atMs: fc.maxSafeNat() }, { noNullPrototype: true });
    fc.assert(fc.property(account, order, position, event, clientId, fc.string(), (a, o, p, e, c, key) => {
      s.root.transactionSync(() => {
        s.accounts.putSync(key, a);
        s.orders.putSync([key, 1], o);
        s.pending.putSync(key, o);
        s.positions.putSync(7, p);
        s.events.putSync([key, 1], e);
        s.clientIds.putSync([key, 'c'], c);
      });
      expectSame(s.accounts.get(key), a);
      expectSame(s.orders.get([key, 1]), o);
      expectSame(s.pending.get(key), o);
      expectSame(s.positions.get(7), p);
      expectSame(s.events.get([key, 1]), e);
      expectSame(s.clientIds.get([key, 'c']), c);
    }), { numRuns: 300 });
  });

  it('keep every number exactly: int32s, safe integers past 2^31, fractions, -0, infinities', () => {
    const s = store();
    const base = fc.sample(account, { numRuns: 1, seed: 1 })[0]!;
    const numbers = fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double(), fc.constantFrom(-0, 2 ** 31, -(2 ** 31), 2 ** 32, 2 ** 53 - 1, Infinity, -Infinity));
    fc.assert(fc.property(numbers, numbers, (balance, margin) => {
      const a: AccountRecord = { ...base, balance, margin };
      void s.accounts.putSync('x', a);
      const got = s.accounts.get('x')!;
      expect(Object.is(got.balance, balance) && Object.is(got.margin, margin)).toBe(true);
    }), { numRuns: 500 });
  });

  it('read a table written before the codec, and values of both forms in one range', async () => {
    const dir = dataDir();
    const before = fc.sample(event, { numRuns: 40, seed: 7 }).map((e, i): EngineEvent => (e.type === 'order'
      ? { ...e, seq: i + 1, order: { ...e.order, login: '100001' } }
      : { ...e, seq: i + 1, position: { ...e.position, login: '100001' } }));
    // The tables as the build before the codec wrote them: msgpack records whose structures are stored in the table.
    const legacy = open({ path: shardDir(dir, 0), maxDbs: 64 });
    const events = legacy.openDB<EngineEvent, [string, number]>({ name: 'events', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') });
    legacy.transactionSync(() => { for (const e of before.slice(0, 20)) events.putSync([loginOf(e), e.seq], e); });
    await legacy.close();

    const s = store(dir);
    s.root.transactionSync(() => { for (const e of before.slice(20)) s.events.putSync([loginOf(e), e.seq], e); });
    const read = [...s.events.getRange({ start: ['100001', 0], end: ['100001', Number.MAX_SAFE_INTEGER] })].map((entry) => entry.value);
    expectSame(read, before);
  });

  it('refuse a value of a newer format, naming it', () => {
    const s = store();
    // Raw bytes past the table's encoder: what a newer build would have written.
    const newer = asBinary(Buffer.from([0xc1, 2, 4, 0])) as unknown as EngineEvent;
    s.root.transactionSync(() => { void s.events.putSync(['100001', 1], newer); });
    expect(() => s.events.get(['100001', 1])).toThrow(/^table events in .*shard-0: a stored record of format version 2; .*newer tas/);
  });
});
