// What the main thread reads of the shards' history (events for `since_seq` replay, orders for
// lookups): their checkpoint tables, plus every event the shards reported that a checkpoint may
// not hold yet. The shards write their tables behind their journals, so a table read alone could
// miss an order acknowledged a moment ago; each event arrives with the LSN it is durable at and
// stays here until the shard reports a checkpoint at or past that LSN. Both sides are read and
// merged by seq, so an event in both is seen once and none is in neither.
import type { EngineEvent, OrderRecord } from '../engine/types.js';
import type { AccountDbs } from '../store/store.js';
import type { ShardListener } from './client.js';
import { shardOf } from './protocol.js';

interface Chunk { readonly lsn: number; readonly events: readonly EngineEvent[] }

const loginOf = (e: EngineEvent): string => (e.type === 'order' ? e.order.login : e.position.login);
const ORDER_ID = /^\d{1,15}$/;

export class ShardHistory implements ShardListener {
  /** Per shard, what its checkpoint may not hold yet, oldest first. */
  private readonly tails: Chunk[][];

  constructor(private readonly tables: readonly AccountDbs[]) {
    this.tails = tables.map(() => []);
  }

  readonly events = (events: readonly EngineEvent[], shard: number, lsn: number): void => {
    const tail = this.tails[shard]!;
    const last = tail.at(-1);
    if (last?.lsn === lsn) (last.events as EngineEvent[]).push(...events);
    else tail.push({ lsn, events: [...events] });
  };

  readonly checkpoint = (shard: number, lsn: number): void => {
    // Reads after this must see the commit the notice reports before the tail lets go of it.
    this.tables[shard]!.events.resetReadTxn();
    const tail = this.tails[shard]!;
    let covered = 0;
    while (covered < tail.length && tail[covered]!.lsn <= lsn) covered++;
    tail.splice(0, covered);
  };

  /** Events held here, not yet known to be in a checkpoint (for tests and metrics). */
  get tailEvents(): number {
    return this.tails.reduce((n, t) => n + t.reduce((m, c) => m + c.events.length, 0), 0);
  }

  /** Up to `limit` events of the account after `afterSeq`, in seq order. */
  eventsAfter(login: string, afterSeq: number, limit: number): EngineEvent[] {
    const table = this.tablesOf(login).events;
    const stored = [...table.getRange({ start: [login, afterSeq + 1], end: [login, Number.MAX_SAFE_INTEGER], limit })].map((e) => e.value);
    const lastStored = stored.at(-1)?.seq ?? afterSeq;
    const newer = this.tailOf(login, (e) => e.seq > lastStored);
    return stored.concat(newer).slice(0, limit);
  }

  /** The oldest seq of the account still kept, or null when none is. */
  oldestSeq(login: string): number | null {
    for (const key of this.tablesOf(login).events.getKeys({ start: [login, 0], end: [login, Number.MAX_SAFE_INTEGER], limit: 1 })) return key[1];
    return this.tailOf(login, () => true)[0]?.seq ?? null;
  }

  /** The account's order by id as last reported, from any time the history keeps. */
  order(login: string, orderId: string): OrderRecord | null {
    const newest = this.newestTailOrder(login, (o) => o.id === orderId);
    if (newest !== null) return newest;
    return ORDER_ID.test(orderId) ? this.tablesOf(login).orders.get([login, Number(orderId)]) ?? null : null;
  }

  /** The order the account placed with this client id, while the id is kept (at least 24 h). */
  orderByClientId(login: string, clientId: string): OrderRecord | null {
    const newest = this.newestTailOrder(login, (o) => o.clientId === clientId);
    if (newest !== null) return newest;
    const entry = this.tablesOf(login).clientIds.get([login, clientId]);
    return entry === undefined ? null : this.order(login, entry.orderId);
  }

  /** The account's orders with ids above `afterId`, ascending: the checkpoint's, merged with newer states reported since. */
  *orders(login: string, afterId = 0): Generator<OrderRecord> {
    const newer = new Map<string, OrderRecord>();
    for (const e of this.tailOf(login, (ev) => ev.type === 'order' && Number(ev.order.id) > afterId)) if (e.type === 'order') newer.set(e.order.id, e.order);
    for (const { value } of this.tablesOf(login).orders.getRange({ start: [login, afterId + 1], end: [login, Number.MAX_SAFE_INTEGER] })) {
      const fresh = newer.get(value.id);
      newer.delete(value.id);
      yield fresh ?? value;
    }
    // Ids of one account grow with time: what no checkpoint holds yet comes after the rest.
    yield* [...newer.values()].sort((a, b) => Number(a.id) - Number(b.id));
  }

  private tablesOf(login: string): AccountDbs {
    return this.tables[shardOf(login, this.tables.length)]!;
  }

  private tailOf(login: string, keep: (e: EngineEvent) => boolean): EngineEvent[] {
    const found: EngineEvent[] = [];
    for (const chunk of this.tails[shardOf(login, this.tables.length)]!) {
      for (const e of chunk.events) if (loginOf(e) === login && keep(e)) found.push(e);
    }
    return found;
  }

  private newestTailOrder(login: string, match: (o: OrderRecord) => boolean): OrderRecord | null {
    let newest: OrderRecord | null = null;
    for (const e of this.tailOf(login, (ev) => ev.type === 'order')) if (e.type === 'order' && match(e.order)) newest = e.order;
    return newest;
  }
}
