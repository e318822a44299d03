// A replica shard's side of commands its node's peers send for a shard another node owns: it
// forwards them to the owner (NATS request/reply on the shard's command subject) and answers the
// peer. A refusal comes back in the reply and is answered at once; a journaled command comes back
// as its LSN and is answered when this replica applies that record (cluster-shard.ts), with the
// events the replay produced, so the peer sees its command's events before its answer, exactly
// as from a local shard. Nobody owning the shard, or no answer in time, is answered
// `unavailable` with what is known: nothing was done, or the outcome is unknown.
import type { NatsConnection } from '@nats-io/transport-node';
import type { Peer } from '../shard/core.js';
import type { Answer, CommandItem, OutItem } from '../shard/protocol.js';
import { decodeReply, encode } from './codec.js';
import { isNoResponders } from './nats.js';
import { commandSubject } from './names.js';

const key = (peer: Peer, corr: number): string => `${peer}:${corr}`;

export interface ForwarderOptions {
  readonly nc: NatsConnection;
  readonly node: string;
  readonly shard: number;
  readonly timeoutMs: number;
  /** Answers ready for a peer (the worker writes them out on its next turn). */
  readonly answer: (peer: Peer, item: OutItem) => void;
  readonly onBadReply: (why: string) => void;
}

export class Forwarder {
  /** Commands sent and not answered yet. */
  private readonly pending = new Set<string>();

  constructor(private readonly opts: ForwarderOptions) {}

  get inFlight(): number { return this.pending.size; }

  forward(peer: Peer, items: readonly CommandItem[]): void {
    const { opts } = this;
    for (const item of items) this.pending.add(key(peer, item.corr));
    opts.nc.request(commandSubject(opts.shard), encode({ node: opts.node, peer, items }), { timeout: opts.timeoutMs }).then(
      (msg) => {
        const reply = decodeReply(msg.data);
        if (!reply.ok) {
          opts.onBadReply(reply.why);
          this.fail(peer, items, `the owner of shard ${opts.shard} sent an answer that does not decode; the outcome is unknown: look the order up by client_id`);
          return;
        }
        // A journaled item stays pending until its record is applied here.
        for (const a of reply.value.items) if (a.k === 'answer') this.settle(peer, a.corr, a.answer);
      },
      (err: unknown) => this.fail(peer, items, isNoResponders(err)
        ? `no node owns shard ${opts.shard} right now (a failover is under way): nothing was done; retry`
        : `no answer from the owner of shard ${opts.shard} within ${opts.timeoutMs} ms: the outcome is unknown; look the order up by client_id`),
    );
  }

  /** The record of this peer's command is being applied here: true (and it is answered with it) when still awaited. */
  take(peer: Peer, corr: number): boolean {
    return this.pending.delete(key(peer, corr));
  }

  private fail(peer: Peer, items: readonly CommandItem[], message: string): void {
    for (const item of items) this.settle(peer, item.corr, { t: 'unavailable', message });
  }

  private settle(peer: Peer, corr: number, answer: Answer): void {
    if (this.pending.delete(key(peer, corr))) this.opts.answer(peer, { k: 'reply', corr, answer, events: [] });
  }
}
