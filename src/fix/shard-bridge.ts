// The FIX thread's side of the shards: its own SPSC ring pair per shard (never through the main
// thread). Commands and queries carry a correlation id; a full ring is backpressure the caller
// answers (8 or 9 with 58=busy), never a silent drop. Watch frames (which accounts' events this
// thread wants) must not be lost, so they wait in a per-shard backlog until the ring has room,
// and commands to that shard wait behind them (answered busy) to keep their order.
//
// Replies and events of one shard batch are delivered in the engine's order: an order event that
// is the result of one of this thread's commands is handed to that command's reply handler (its
// ExecutionReport then carries the event's number and is not sent a second time as unsolicited);
// every other event goes to the EventSink; replies without such an event come last.
import { FrameReader, FrameWriter, type RingChannel } from '../ring/index.js';
import type { AccountSnapshot, Command, OrderEvent } from '../engine/types.js';
import { type ReplyBody, type ShardInbound, type ShardOutbound, shardOf } from '../shard/protocol.js';
import type { ReplyHandler, ShardLink } from './app/ports.js';
import type { EventSink } from './app/gateway.js';
import type { SessionLog } from './session/types.js';

const MAX_DRAIN_FRAMES = 256;

interface Shard {
  readonly writer: FrameWriter<ShardInbound>;
  readonly reader: FrameReader<ShardOutbound>;
  readonly backlog: ShardInbound[];
}

type Reply = ShardOutbound['replies'][number];

export class ShardBridge implements ShardLink {
  private readonly shards: Shard[];
  private readonly pending = new Map<number, ReplyHandler>();
  private corr = 0;
  private sink: EventSink | null = null;

  constructor(toShards: readonly RingChannel[], fromShards: readonly RingChannel[], private readonly log: SessionLog) {
    this.shards = toShards.map((channel, i) => ({
      writer: new FrameWriter<ShardInbound>(channel),
      reader: new FrameReader<ShardOutbound>(fromShards[i]!),
      backlog: [],
    }));
  }

  connect(sink: EventSink): void {
    this.sink = sink;
  }

  command(login: string, cmd: Command, onReply: ReplyHandler): boolean {
    return this.send(login, (corr) => ({ t: 'cmd', corr, cmd }), onReply);
  }

  query(login: string, onReply: (snapshot: AccountSnapshot | null) => void): boolean {
    return this.send(login, (corr) => ({ t: 'query', corr, query: { kind: 'account', login } }),
      (body) => onReply('snapshot' in body ? body.snapshot : null));
  }

  watch(login: string, on: boolean): void {
    const shard = this.shardFor(login);
    shard.backlog.push({ t: 'watch', login, on });
    this.flushBacklog(shard);
  }

  /** Whether a watch frame still waits for ring space (the worker retries soon). */
  get backlogged(): boolean {
    return this.shards.some((s) => s.backlog.length > 0);
  }

  /** Delivers everything the shards wrote; returns the number of batches. */
  drain(): number {
    let frames = 0;
    for (const shard of this.shards) {
      this.flushBacklog(shard);
      frames += shard.reader.drain(MAX_DRAIN_FRAMES, (batch) => this.deliver(batch));
    }
    return frames;
  }

  private shardFor(login: string): Shard {
    return this.shards[shardOf(login, this.shards.length)]!;
  }

  private send(login: string, frame: (corr: number) => ShardInbound, onReply: ReplyHandler): boolean {
    const shard = this.shardFor(login);
    if (!this.flushBacklog(shard)) return false;
    const corr = ++this.corr;
    if (!shard.writer.tryWrite(frame(corr))) return false;
    this.pending.set(corr, onReply);
    return true;
  }

  /** True when nothing waits any more. */
  private flushBacklog(shard: Shard): boolean {
    while (shard.backlog.length > 0) {
      if (!shard.writer.tryWrite(shard.backlog[0]!)) return false;
      shard.backlog.shift();
    }
    return true;
  }

  private deliver(batch: ShardOutbound): void {
    // Replies and events are both in command order, so equal keys (two replaces of one order in a
    // batch) pair up first with first.
    const byResult = new Map<string, Reply[]>();
    for (const reply of batch.replies) {
      const body = reply.body;
      if (!this.pending.has(reply.corr) || !body.ok || !('result' in body) || !('order' in body.result)) continue;
      const key = `${body.result.order.id}|${body.result.order.status}`;
      const same = byResult.get(key);
      if (same === undefined) byResult.set(key, [reply]);
      else same.push(reply);
    }
    for (const e of batch.events) {
      if (e.type === 'position') {
        this.safely(() => this.sink?.positionEvent(e));
        continue;
      }
      const reply = byResult.get(`${e.order.id}|${e.order.status}`)?.shift();
      if (reply !== undefined) this.answer(reply.corr, reply.body, e);
      else this.safely(() => this.sink?.orderEvent(e));
    }
    for (const reply of batch.replies) this.answer(reply.corr, reply.body, null);
  }

  private answer(corr: number, body: ReplyBody, event: OrderEvent | null): void {
    const handler = this.pending.get(corr);
    if (handler === undefined) return;
    this.pending.delete(corr);
    this.safely(() => handler(body, event));
  }

  /** A handler's bug costs its own answer, not the rest of the batch. */
  private safely(run: () => void): void {
    try {
      run();
    } catch (err) {
      this.log.error({ err }, 'fix: shard reply handler failed');
    }
  }
}
