// A tas node's membership of its cluster, on the main thread: the NATS connection, the streams and
// buckets every node expects (created by whichever node starts first, with the same settings),
// the node's own lease (a node_id already live is refused at start), the market lease (the one
// node whose price sources run, publishing each quote once on its symbol's subject for every
// node), and the quotes coming back.
import { JetStreamApiError, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager, type StoredMsg, type StreamConfig } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import type { ClusterConfig, Durability } from '../config/types.js';
import type { Quote } from '../engine/types.js';
import type { Logger } from '../base/log.js';
import { decodeQuote, encodeQuote } from './codec.js';
import { Lease } from './lease.js';
import { connectNats } from './nats.js';
import { journalStream, journalSubject, LEASE_BUCKET, MAIN_BUCKET, MARKET_LEASE, nodeLease, QUOTE_STREAM, QUOTE_SUBJECTS, quoteSubject } from './names.js';

export class NodeIdLiveError extends Error {}

/** How long a joining node waits for its NATS cluster to form, and retries taking its own lease while the bucket settles. */
const JOIN_RETRY_MS = 10_000;
/** Reads of a symbol's kept quote before a node gives up on it (see keptQuote), 200, 400, … ms apart. */
const KEPT_QUOTE_ATTEMPTS = 5;
const KEPT_QUOTE_RETRY_MS = 200;

/**
 * JetStream's answers while its cluster is still forming: no suitable peers for placement (10005:
 * a replicated stream needs servers that have not joined JetStream yet; seen with three NATS
 * servers just started, the meta leader elected by two) and the system temporarily unavailable
 * (10008). A node starting then waits for the cluster instead of failing.
 */
const FORMING_CODES: ReadonlySet<number> = new Set([10005, 10008]);
const FORMING_RETRY_MAX_MS = 1000;

/** `create`, retried with a growing pause while JetStream answers that its cluster is forming, up to JOIN_RETRY_MS. */
async function whileForming<T>(what: string, log: Logger, create: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + JOIN_RETRY_MS;
  for (let waitMs = 50; ; waitMs = Math.min(waitMs * 2, FORMING_RETRY_MAX_MS)) {
    try {
      return await create();
    } catch (err) {
      if (!(err instanceof JetStreamApiError && FORMING_CODES.has(err.code)) || Date.now() + waitMs > deadline) throw err;
      log.warn({ what, reason: err.message, retryMs: waitMs }, 'cluster: the NATS cluster is still forming; retrying');
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** Streams are created by one node at a time at most once; the others find them. */
async function ensureStream(jsm: JetStreamManager, log: Logger, config: Partial<StreamConfig> & { readonly name: string }): Promise<void> {
  try {
    await jsm.streams.info(config.name);
    return;
  } catch {
    // Not there yet.
  }
  try {
    await whileForming(`stream ${config.name}`, log, () => jsm.streams.add(config));
  } catch (err) {
    // Another node created it meanwhile.
    await jsm.streams.info(config.name).catch(() => { throw err; });
  }
}

export interface ClusterNodeOptions {
  readonly config: ClusterConfig;
  readonly durability: Durability;
  readonly log: Logger;
  /** The node starts (true) or stops (false) pricing the cluster's market. */
  readonly onPricing: (on: boolean) => void;
}

export class ClusterNode {
  private readonly timers: NodeJS.Timeout[] = [];
  private quotes: Subscription | null = null;
  private pricing = false;
  private closed = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly main: KV,
    private readonly self: Lease,
    private readonly market: Lease,
    private readonly jsm: JetStreamManager,
    private readonly opts: ClusterNodeOptions,
  ) {}

  /** Connects, makes sure the cluster's streams and buckets exist, and takes this node's lease. */
  static async join(opts: ClusterNodeOptions): Promise<ClusterNode> {
    const { config } = opts;
    const node = config.node_id!;
    const nc = await connectNats(config.nats.servers, `tas ${node}`);
    try {
      const jsm = await jetstreamManager(nc);
      const storage = opts.durability === 'sync' ? StorageType.File : StorageType.Memory;
      for (let shard = 0; shard < config.shards; shard++) {
        await ensureStream(jsm, opts.log, { name: journalStream(shard), subjects: [journalSubject(shard)], num_replicas: config.replicas, storage, retention: RetentionPolicy.Limits });
      }
      // The latest quote of each symbol, for a node that starts while the market runs.
      await ensureStream(jsm, opts.log, { name: QUOTE_STREAM, subjects: [QUOTE_SUBJECTS], num_replicas: config.replicas, storage: StorageType.Memory, max_msgs_per_subject: 1 });
      const kvm = new Kvm(nc);
      const leases = await whileForming(`bucket ${LEASE_BUCKET}`, opts.log, () => kvm.create(LEASE_BUCKET, { ttl: config.lease_ms, history: 1, replicas: config.replicas, storage: StorageType.Memory }));
      const main = await whileForming(`bucket ${MAIN_BUCKET}`, opts.log, () => kvm.create(MAIN_BUCKET, { history: 1, replicas: config.replicas, storage }));
      const self = new Lease(leases, nodeLease(node), node, config.lease_ms);
      // 'free' after a refused create is a bucket not ready yet (nodes creating it together): retried.
      const deadline = Date.now() + JOIN_RETRY_MS;
      let claim = await self.claim();
      while (claim.t === 'free' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, config.lease_ms / 10));
        claim = await self.claim();
      }
      if (claim.t === 'taken') throw new NodeIdLiveError(`cluster.node_id ${JSON.stringify(node)} is already live in this cluster: give each node its own node_id`);
      if (claim.t === 'free') throw new Error(`cannot take this node's lease in the ${LEASE_BUCKET} bucket within ${JOIN_RETRY_MS} ms`);
      const joined = new ClusterNode(nc, main, self, new Lease(leases, MARKET_LEASE, node, config.lease_ms), jsm, opts);
      joined.keepAlive();
      return joined;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  get node(): string { return this.opts.config.node_id!; }

  /** Receives every quote of the cluster (after the latest kept ones), and starts competing to price. */
  async run(onQuote: (quote: Quote) => void, symbols: readonly string[]): Promise<void> {
    const { log, config } = this.opts;
    this.quotes = this.nc.subscribe(QUOTE_SUBJECTS, {
      callback: (err, msg) => {
        if (err !== null) return;
        const q = decodeQuote(msg.data);
        if (q.ok) onQuote(q.value);
        else log.warn({ subject: msg.subject, why: q.why }, 'quote that does not decode dropped');
      },
    });
    // Subscribed first, so nothing published meanwhile is missed; a kept quote older than one
    // received since is ignored by the market.
    const kept = await Promise.all(symbols.map((symbol) => this.keptQuote(symbol)));
    for (const m of kept) {
      const q = m === null ? null : decodeQuote(m.data);
      if (q?.ok) onQuote(q.value);
    }
    this.timers.push(setInterval(() => { void this.competeForMarket(); }, config.lease_ms / 3));
    await this.competeForMarket();
  }

  /**
   * The last quote the cluster kept for a symbol (null: none yet). A request that fails (a
   * timeout on a loaded box) is asked again: pushed prices are published once, so a node that
   * missed its kept quote would have none for that symbol until the next push.
   */
  private async keptQuote(symbol: string): Promise<StoredMsg | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.jsm.streams.getMessage(QUOTE_STREAM, { last_by_subj: quoteSubject(symbol) });
      } catch (err) {
        if (this.closed || attempt >= KEPT_QUOTE_ATTEMPTS) {
          this.opts.log.warn({ err, symbol }, 'the kept quote could not be read: the symbol waits for its next quote');
          return null;
        }
        await new Promise((resolve) => setTimeout(resolve, KEPT_QUOTE_RETRY_MS * attempt));
      }
    }
  }

  /** Renews this node's lease from now on (a lapse, e.g. a long stall, is claimed again). */
  private keepAlive(): void {
    const { log, config } = this.opts;
    this.timers.push(setInterval(() => {
      void this.self.renew().then(async (r) => {
        if (this.closed || r.held) return;
        log.error({ err: r.error }, 'this node\'s own lease lapsed: claiming it again');
        const claim = await this.self.claim();
        if (claim.t === 'taken') log.error({ holder: claim.holder }, 'another process took this node\'s node_id');
      });
    }, config.lease_ms / 3));
  }

  /** Publishes a quote this node's market made, once, for every node. */
  relay(quote: Quote): void {
    this.nc.publish(quoteSubject(quote.symbol), encodeQuote(quote));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    this.quotes?.unsubscribe();
    this.setPricing(false);
    await this.market.release();
    await this.self.release();
    await this.nc.drain().catch((err: unknown) => this.opts.log.warn({ err }, 'NATS connection not drained'));
  }

  private async competeForMarket(): Promise<void> {
    if (this.closed) return;
    try {
      const held = this.pricing ? (await this.market.renew()).held : (await this.market.claim()).t === 'held';
      this.setPricing(held);
    } catch (err) {
      this.opts.log.warn({ err }, 'market lease check failed');
      this.setPricing(this.market.held);
    }
  }

  private setPricing(on: boolean): void {
    if (on === this.pricing) return;
    this.pricing = on;
    this.opts.log.info({ pricing: on }, on ? 'this node prices the market' : 'this node no longer prices the market');
    this.opts.onPricing(on);
  }
}
