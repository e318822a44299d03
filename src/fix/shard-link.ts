// The FIX thread's side of the shards: the one ShardClient (over this thread's own ring pair per
// shard) behind the ShardLink the application layer uses. A reply carries the events its command
// caused; the order event of the reply's own order goes with the reply (its seq numbers the
// ExecutionReport, and it is then not reported a second time as unsolicited), every other event
// (the position a fill opened, events of other peers' commands and of ticks) goes to the EventSink.
import type { AccountSnapshot, Command, EngineEvent, OrderEvent, OrderRecord } from '../engine/types.js';
import type { ShardClient } from '../shard/client.js';
import type { Answer, OrderRef } from '../shard/protocol.js';
import type { ReplyHandler, ShardLink } from './app/ports.js';
import type { EventSink } from './app/gateway.js';

/** The order a command's answer names, when it names one. */
function answeredOrder(answer: Answer): OrderRecord | null {
  if (answer.t !== 'done') return null;
  const r = answer.result;
  return r.kind === 'place' || r.kind === 'cancel' || r.kind === 'replace' ? r.order : null;
}

export class FixShardLink implements ShardLink {
  private sink: EventSink | null = null;

  constructor(private readonly client: ShardClient) {
    client.listen({
      events: (events, _shard, _lsn, reply) => { if (!reply) this.toSink(events); },
    });
  }

  connect(sink: EventSink): void {
    this.sink = sink;
  }

  command(login: string, cmd: Command, onReply: ReplyHandler): boolean {
    return this.client.command(login, cmd, (answer, events) => {
      const order = answeredOrder(answer);
      // A command moves its own order once at most: the reply's event of that order is the one.
      const own = order === null ? undefined : events.find((e): e is OrderEvent => e.type === 'order' && e.order.id === order.id);
      onReply(answer, own ?? null);
      this.toSink(own === undefined ? events : events.filter((e) => e !== own));
    });
  }

  query(login: string, onReply: (snapshot: AccountSnapshot | null) => void): boolean {
    return this.client.query(login, { kind: 'account', login }, (answer) => onReply(answer.t === 'account' ? answer.snapshot : null));
  }

  findOrder(login: string, ref: OrderRef, onFound: (order: OrderRecord | null) => void): boolean {
    return this.client.query(login, { kind: 'order', login, ref }, (answer) => onFound(answer.t === 'order' ? answer.order : null));
  }

  watch(login: string, on: boolean): void {
    this.client.watch(login, on);
  }

  private toSink(events: readonly EngineEvent[]): void {
    const sink = this.sink;
    if (sink === null) return;
    for (const e of events) {
      if (e.type === 'order') sink.orderEvent(e);
      else sink.positionEvent(e);
    }
  }
}
