// What a shard's duty cycle takes from its input rings as one batch: every frame waiting, peer by
// peer, up to a bound on the batch's latency and its journal write. A frame is never split: its
// commands are journaled together.
//
// Tried and not kept: ending a batch at 256 commands, with the kill switch sending its accounts in
// frames of 64, so that the main thread would decode and report one part while the shard closes
// the next. Through the service (webhooks bench, 8 rounds, alternating builds) the 10,000-close
// kill switch took 73 and 82 ms against 79 and 76 ms: no gain to pay an extra sync per 256 orders for.
import type { FrameReader } from '../ring/index.js';
import type { Inbound, Peer } from './core.js';
import type { ShardInbound } from './protocol.js';

const MAX_BATCH_FRAMES = 2048;

/** A frame that does not decode is consumed and reported through `onUndecodable`; the shard keeps serving. */
export function drainBatch(readers: readonly FrameReader<ShardInbound>[], onUndecodable: (err: unknown, peer: Peer) => void): Inbound[] {
  const batch: Inbound[] = [];
  for (let peer = 0; peer < readers.length; peer++) {
    const from = peer as Peer;
    try {
      readers[peer]!.drain(MAX_BATCH_FRAMES - batch.length, (frame) => { batch.push({ peer: from, frame }); });
    } catch (err) {
      onUndecodable(err, from);
    }
  }
  return batch;
}
