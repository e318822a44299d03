// A replica's reading of a shard's journal stream: an ordered consumer from the message after the
// replica's checkpoint, each message decoded and queued for the shard's duty cycle (which applies
// them between batches) and the cycle woken. An ordered consumer is recreated by the client when
// it misses a message, so the queue never skips one.
import { DeliverPolicy, type ConsumerMessages, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { decodeJournal, type Decoded, type JournalMessage } from './codec.js';
import { journalStream } from './names.js';

export interface TailMessage { readonly seq: number; readonly message: Decoded<JournalMessage> }

export class StreamTail {
  private queue: TailMessage[] = [];
  private messages: ConsumerMessages | null = null;
  /** The last message queued (or applied before the tail started). */
  private lastSeq = 0;

  constructor(private readonly js: JetStreamClient, private readonly jsm: JetStreamManager, private readonly shard: number, private readonly onArrival: () => void) {}

  get running(): boolean { return this.messages !== null; }

  /** The sequence of the last message queued so far. */
  get queuedSeq(): number { return this.lastSeq; }

  /** Reads from the message after `afterSeq` on. */
  async start(afterSeq: number): Promise<void> {
    this.stop();
    this.lastSeq = afterSeq;
    const consumer = await this.js.consumers.get(journalStream(this.shard), { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: afterSeq + 1 });
    this.messages = await consumer.consume({
      callback: (m) => {
        this.lastSeq = m.seq;
        this.queue.push({ seq: m.seq, message: decodeJournal(m.data) });
        this.onArrival();
      },
    });
  }

  /** Everything queued since the last call, in stream order. */
  take(): TailMessage[] {
    const taken = this.queue;
    this.queue = [];
    return taken;
  }

  /** The stream's last message now (0 when empty). */
  async streamEnd(): Promise<number> {
    return (await this.jsm.streams.info(journalStream(this.shard))).state.last_seq;
  }

  stop(): void {
    this.messages?.stop();
    this.messages = null;
    this.queue = [];
  }
}
