// The shards reached through SPSC rings on shared memory (one ring pair per shard and peer thread):
// the ShardTransport of a thread in the same process as its shards.
import { FrameReader, FrameWriter, type RingChannel } from '../ring/index.js';
import type { ShardTransport } from './client.js';
import type { ShardInbound, ShardOutbound } from './protocol.js';
import { fromWire, type WireOutbound } from './batch-wire.js';

export class RingTransport implements ShardTransport {
  private readonly writers: FrameWriter<ShardInbound>[];
  private readonly readers: FrameReader<WireOutbound>[];

  /** `toShards[i]` and `fromShards[i]` are this thread's rings to and from shard i. */
  constructor(toShards: readonly RingChannel[], fromShards: readonly RingChannel[]) {
    this.writers = toShards.map((c) => new FrameWriter<ShardInbound>(c));
    this.readers = fromShards.map((c) => new FrameReader<WireOutbound>(c));
  }

  get shards(): number { return this.writers.length; }

  trySend(shard: number, frame: ShardInbound): boolean {
    return this.writers[shard]!.tryWrite(frame);
  }

  receive(maxFrames: number, onFrame: (frame: ShardOutbound) => void): number {
    let frames = 0;
    for (const reader of this.readers) frames += reader.drain(maxFrames, (frame) => { onFrame(fromWire(frame)); });
    return frames;
  }
}
