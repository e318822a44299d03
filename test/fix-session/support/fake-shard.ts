// A shard in the test's own thread: the real Engine behind the real ring protocol and wire form, so the
// conformance tests drive the FIX thread's real ShardClient and FixShardLink. It applies whatever
// the FIX side wrote, one batch per process() call, and keeps every order it accepted (what a
// shard's history answers an order query from). `other()` applies a command from another peer
// (REST, console, kill switch): its events reach the FIX side only, as a shard's would, when the
// login is watched.
import { Engine } from '../../../src/engine/engine.js';
import type { Command, EngineEvent, EngineInit, OrderRecord, Outcome, Quote } from '../../../src/engine/types.js';
import { FrameReader, FrameWriter, createDoorbell, createRing, type RingChannel } from '../../../src/ring/index.js';
import { toWire, type WireOutbound } from '../../../src/shard/batch-wire.js';
import type { Answer, OrderRef, OutItem, ShardInbound } from '../../../src/shard/protocol.js';

export class FakeShard {
  readonly toShard: RingChannel;
  readonly fromShard: RingChannel;
  readonly engine: Engine;
  readonly watched = new Set<string>();
  /** Frames the shard does not process while true (a saturated shard: its ring fills up). */
  stalled = false;
  private readonly reader: FrameReader<ShardInbound>;
  private readonly writer: FrameWriter<WireOutbound>;
  private readonly ordersById = new Map<string, OrderRecord>();
  private readonly clientIds = new Map<string, string>();
  private readonly events: EngineEvent[] = [];

  constructor(init: EngineInit, private readonly clock: () => number, ringBytes = 1 << 16) {
    this.engine = new Engine(init);
    this.toShard = createRing(ringBytes, createDoorbell());
    this.fromShard = createRing(1 << 20, createDoorbell());
    this.reader = new FrameReader(this.toShard);
    this.writer = new FrameWriter(this.fromShard);
  }

  order(login: string, ref: OrderRef): OrderRecord | null {
    const orderId = ref.by === 'id' ? ref.orderId : this.clientIds.get(`${login}|${ref.clientId}`);
    const o = orderId === undefined ? undefined : this.ordersById.get(orderId);
    return o !== undefined && o.login === login ? o : null;
  }

  /** A command from another peer (REST, console, webhook, kill switch). */
  other(cmd: Command): Outcome {
    return this.apply(cmd);
  }

  tick(quote: Quote): void {
    this.apply({ kind: 'tick', quote });
  }

  /** Applies what the FIX side sent and writes one batch back; returns the frames handled. */
  process(): number {
    if (this.stalled) return 0;
    const items: OutItem[] = [];
    const unsolicited = (): void => {
      const events = this.events.splice(0).filter((e) => this.watched.has(e.type === 'order' ? e.order.login : e.position.login));
      if (events.length > 0) items.push({ k: 'events', events });
    };
    unsolicited();
    const frames = this.reader.drain(1 << 16, (frame) => {
      switch (frame.t) {
        case 'cmds':
          for (const { corr, cmd } of frame.items) {
            const outcome = this.apply(cmd);
            this.events.length = 0;
            const r = outcome.result;
            const answer: Answer = r.ok ? { t: 'done', result: r } : { t: 'rejected', reject: r };
            items.push({ k: 'reply', corr, answer, events: outcome.events });
          }
          break;
        case 'query': {
          const q = frame.query;
          const answer: Answer = q.kind === 'account' ? { t: 'account', snapshot: this.engine.account(q.login) } : { t: 'order', order: this.order(q.login, q.ref) };
          items.push({ k: 'reply', corr: frame.corr, answer, events: [] });
          break;
        }
        case 'watch':
          if (frame.on) this.watched.add(frame.login);
          else this.watched.delete(frame.login);
          break;
        case 'tick':
          this.apply({ kind: 'tick', quote: frame.quote });
          unsolicited();
          break;
        case 'stop':
          break;
      }
    });
    // In the wire form the real shard writes (shard/write-frame.ts).
    if (items.length > 0 && !this.writer.tryWrite(toWire({ t: 'batch', shard: 0, lsn: 0, accounts: [], items }))) throw new Error('fake shard: FIX ring full');
    return frames + items.length;
  }

  private apply(cmd: Command): Outcome {
    const outcome = this.engine.apply(cmd, this.clock());
    for (const o of outcome.orders) this.ordersById.set(o.id, o);
    for (const c of outcome.clientIds) this.clientIds.set(`${c.login}|${c.clientId}`, c.orderId);
    this.events.push(...outcome.events);
    return outcome;
  }
}
