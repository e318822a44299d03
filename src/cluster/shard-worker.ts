// A shard's thread on a cluster node. Every node runs every shard of the cluster: as its replica,
// applying what the owner journals to the shard's stream (so its node's read model, history and
// stream subscribers see every account, and a failover starts from a warm engine), or as its
// owner, while it holds the shard's lease. The roles:
//
//   replica  applies the stream's batches in order; forwards its peers' commands to the owner
//            (forwarder.ts) and answers them when it applies their records; answers queries
//            itself; ignores ticks (the owner journals the quotes a replay needs).
//   owner    what a single-process shard does, with its journal the stream (replicated-journal.ts):
//            applies a batch of its peers' and other nodes' commands, publishes it as one message,
//            and answers once a quorum stored it; renews its lease.
//
// Taking a shard: the lease is free (its owner stopped renewing), this replica claims it, applies
// the stream to its end, and writes a lead marker expecting that end: stored, it owns the shard
// and every earlier owner's next publish is refused. Losing it (lease lost, a publish refused or
// unconfirmed): the engine may hold a batch the stream does not, so the shard rebuilds from its
// checkpoint and the stream, as a replica, without reporting again what its peers already saw.
import { workerData } from 'node:worker_threads';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { Msg, Subscription } from '@nats-io/transport-node';
import { QuoteBoard } from '../market/quote-board.js';
import { FrameReader, FrameWriter, Inbox } from '../ring/index.js';
import { FsJournalIo } from '../store/journal/io.js';
import { openShardStore } from '../store/store.js';
import { createLogger } from '../base/log.js';
import { ThreadMemoryBoard } from '../base/thread-memory.js';
import { nameThread } from '../base/thread-name.js';
import { ShardCore, MAIN, REMOTE, type Inbound, type Peer, type Replicated } from '../shard/core.js';
import { OrderArchive } from '../shard/order-archive.js';
import type { CommandItem, OutItem, ShardInbound, ShardOutbound } from '../shard/protocol.js';
import { endShardThread, runShardThread, signalMain } from '../shard/thread.js';
import { recoverShard, type Recovered } from '../shard/recovery.js';
import { ShardStatsBoard } from '../shard/stats.js';
import { ShardUpkeep } from '../shard/upkeep.js';
import type { ClusterShardData, ShardWorkerData } from '../shard/worker-data.js';
import type { WireOutbound } from '../shard/batch-wire.js';
import { writeFrame } from '../shard/write-frame.js';
import { drainBatch } from '../shard/drain-batch.js';
import { decodeForward, encode, type ForwardedAnswer, type Origin } from './codec.js';
import { Forwarder } from './forwarder.js';
import { Lease } from './lease.js';
import { connectNats } from './nats.js';
import { commandSubject, LEASE_BUCKET, shardLease } from './names.js';
import { ReplicatedJournal } from './replicated-journal.js';
import { StreamTail, type TailMessage } from './stream-tail.js';

const BLOCK_BUSY_MS = 1;
const BLOCK_IDLE_MS = 50;

/**
 * A shard nobody ever owned (a new cluster) waits this many leases for its preferred node before
 * any node claims it, so nodes started together each get their own.
 */
const NEVER_OWNED_WAIT_LEASES = 4;

const data = workerData as ShardWorkerData & { readonly cluster: ClusterShardData };
const { node, leaseMs } = data.cluster;
const preferred = data.cluster.preferredShards.includes(data.shard);
const log = createLogger(data.logLevel, { thread: `shard-${data.shard}`, node });

/** The shard's state, rebuilt from the checkpoint and the stream when the node loses the shard. */
interface Replica {
  readonly engine: Recovered['engine'];
  readonly checkpoint: Recovered['checkpoint'];
  readonly journal: ReplicatedJournal;
  readonly core: ShardCore<ReplicatedJournal>;
  /** The last record applied, and the stream message it came in. */
  appliedLsn: number;
  appliedSeq: number;
  readonly health: ShardCore['health'];
}

/** A command another node forwarded (its index + 1 is the correlation id this shard gave it). */
interface Forwarded { readonly msg: Msg; readonly node: string; readonly peer: Peer; readonly corr: number }

async function main(): Promise<void> {
  const store = openShardStore(data.dataDir, data.shard, data.durability, data.journal.dir);
  const nc = await connectNats(data.cluster.servers, `tas ${node} shard ${data.shard}`);
  const js = jetstream(nc, { timeout: leaseMs });
  const jsm = await jetstreamManager(nc);
  const lease = new Lease(await new Kvm(nc).open(LEASE_BUCKET), shardLease(data.shard), node, leaseMs);
  const stats = new ShardStatsBoard(data.stats);
  nameThread(`tas-shard-${data.shard}`);
  new ThreadMemoryBoard(data.memory).recordOwn();
  const readers = data.inbound.map((c) => new FrameReader<ShardInbound>(c));
  const writers = data.outbound.map((c) => new FrameWriter<WireOutbound>(c));
  const inbox = new Inbox(data.inbound);
  const outgoing: ShardOutbound[][] = writers.map(() => []);
  const answers: OutItem[][] = writers.map(() => []);

  let wakeUp: (() => void) | null = null;
  const wake = (): void => { const w = wakeUp; wakeUp = null; w?.(); };
  const tail = new StreamTail(js, jsm, data.shard, wake);
  const forwarder = new Forwarder({
    nc, node, shard: data.shard, timeoutMs: leaseMs,
    answer: (peer, item) => { answers[peer]!.push(item); wake(); },
    onBadReply: (why) => log.error({ why }, 'undecodable answer from the shard\'s owner dropped'),
  });

  const build = (): Replica => {
    const recovered = recoverShard(store, new FsJournalIo('none'), {
      shard: data.shard, symbols: data.symbols, clientIdRetentionMs: data.clientIdRetentionMs, clientIdMemoryMs: data.clientIdMemoryMs, haltedKeys: data.haltedKeys,
      marginPolicy: data.marginPolicy, nowMs: Date.now(),
    });
    const { engine, checkpoint } = recovered;
    const appliedLsn = recovered.nextLsn - 1;
    const journal = new ReplicatedJournal(js, data.shard, leaseMs, { lastSeq: checkpoint.notedStream, nextLsn: recovered.nextLsn });
    const core = new ShardCore(data.shard, engine, journal, checkpoint, new OrderArchive(engine, checkpoint, store), Date.now, stats);
    return { engine, checkpoint, journal, core, appliedLsn, appliedSeq: checkpoint.notedStream, get health() { return core.health; } };
  };

  let r = build();
  /** What this node's peers have been told of: a rebuild replays up to here without telling again. */
  let reportedLsn = r.appliedLsn;
  let role = 'replica' as 'replica' | 'owner';
  let claimed = false;
  let lostBecause: string | null = null;
  let commands = null as Subscription | null;
  const forwarded: Msg[] = [];
  let renewTimer: NodeJS.Timeout | null = null;

  const board = QuoteBoard.attach(data.board.sab, data.board.symbols);
  /** Ticks the owner applies before its next batch's frames. */
  const ownerTicks: Inbound[] = [];

  const upkeep = new ShardUpkeep({
    shard: data.shard, store, eventRetentionMs: data.eventRetentionMs, clientIdRetentionMs: data.clientIdRetentionMs, log, stats,
    onCheckpoint: () => undefined, toMain: (frame) => outgoing[MAIN]!.push(frame),
  });

  const emit = (frames: readonly (ShardOutbound | null)[]): void => {
    frames.forEach((f, peer) => { if (f !== null && peer < outgoing.length) outgoing[peer]!.push(f); });
  };

  /** Applies stream messages as this shard's replica. */
  const apply = (messages: readonly TailMessage[]): void => {
    for (const { seq, message } of messages) {
      if (seq <= r.appliedSeq) continue;
      r.appliedSeq = seq;
      // A message that applies nothing still moves the position a lead marker must expect.
      r.journal.follow(r.appliedLsn, seq);
      if (!message.ok) {
        log.error({ seq, why: message.why }, 'journal stream message that does not decode dropped (nothing applied)');
        r.checkpoint.noteStream(seq);
        continue;
      }
      const m = message.value;
      if (m.t === 'lead') {
        log.info({ seq, owner: m.node }, 'shard owner changed');
        r.checkpoint.noteStream(seq);
        continue;
      }
      if (m.firstLsn + m.entries.length - 1 <= r.appliedLsn) continue;
      if (m.firstLsn !== r.appliedLsn + 1) {
        throw new Error(`shard ${data.shard}: the journal stream's message ${seq} starts at LSN ${m.firstLsn}, expected ${r.appliedLsn + 1}: records are missing`);
      }
      const mine = new Map(m.origins.filter((o) => o[1] === node).map((o) => [o[0], o]));
      const records: Replicated[] = m.entries.map((entry, i) => {
        const lsn = m.firstLsn + i;
        const o = mine.get(lsn);
        return { lsn, entry, origin: o !== undefined && forwarder.take(o[2], o[3]) ? { peer: o[2], corr: o[3] } : null };
      });
      const silent = records.filter((x) => x.lsn <= reportedLsn);
      const told = records.filter((x) => x.lsn > reportedLsn);
      if (silent.length > 0) r.core.follow(silent);
      if (told.length > 0) emit(r.core.follow(told));
      r.appliedLsn = m.firstLsn + m.entries.length - 1;
      reportedLsn = Math.max(reportedLsn, r.appliedLsn);
      r.checkpoint.noteStream(seq);
      r.journal.follow(r.appliedLsn, seq);
    }
  };

  /** Waits for the stream's messages up to `end`, applying them; false when they do not come in time. */
  const catchUp = async (end: number, timeoutMs: number): Promise<boolean> => {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      apply(tail.take());
      if (r.appliedSeq >= end) return true;
      const left = deadline - performance.now();
      if (left <= 0) return false;
      // Frames waiting in the rings wait: only the stream's arrivals (or time) end this nap.
      await nap(Math.min(left, BLOCK_IDLE_MS), false);
    }
  };

  const nap = async (ms: number, rings = true): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const woken = new Promise<void>((resolve) => { wakeUp = resolve; timer = setTimeout(resolve, ms); });
    await (rings ? Promise.race([inbox.whenReadable(), woken]) : woken);
    clearTimeout(timer);
    wakeUp = null;
  };

  const startTail = async (): Promise<void> => {
    while (!r.core.stopping) {
      try {
        await tail.start(r.appliedSeq);
        return;
      } catch (err) {
        log.error({ err }, 'cannot read the shard\'s journal stream; retrying');
        await new Promise((resolve) => setTimeout(resolve, leaseMs / 4));
      }
    }
  };

  /** Gives the shard up: rebuilt from the checkpoint and the stream, as a replica. */
  const demote = async (why: string): Promise<void> => {
    log.warn({ why }, 'shard given up: rebuilding as a replica');
    role = 'replica';
    claimed = false;
    lostBecause = null;
    if (renewTimer !== null) clearInterval(renewTimer);
    renewTimer = null;
    commands?.unsubscribe();
    commands = null;
    void lease.release();
    await upkeep.settle(r.checkpoint);
    r = build();
    // Commands meanwhile are forwarded to whoever owns the shard, or refused while nobody does.
    void startTail();
  };

  /** This replica holds the lease: applies the stream to its end, then writes its lead marker. */
  const takeOver = async (): Promise<void> => {
    const t0 = performance.now();
    let end: number;
    try {
      end = await tail.streamEnd();
    } catch (err) {
      log.error({ err }, 'cannot read the shard\'s stream end; the claim is given up');
      claimed = false;
      void lease.release();
      return;
    }
    if (!(await catchUp(end, leaseMs)) || !lease.held) {
      claimed = false;
      void lease.release();
      return;
    }
    tail.stop();
    const led = await r.journal.lead(node, Date.now());
    if (led.t !== 'stored') {
      log.warn({ why: led.message }, 'lead marker refused: staying a replica');
      claimed = false;
      void lease.release();
      void startTail();
      return;
    }
    r.appliedSeq = led.seq;
    r.checkpoint.noteStream(led.seq);
    role = 'owner';
    commands = nc.subscribe(commandSubject(data.shard), { callback: (err, msg) => { if (err === null) { forwarded.push(msg); wake(); } } });
    renewTimer = setInterval(() => {
      void lease.renew().then(({ held, error }) => {
        if (error !== null) log.warn({ err: error, held }, 'lease renewal failed');
        if (!held && role === 'owner') { lostBecause = 'its lease could not be renewed'; wake(); }
      });
    }, leaseMs / 3);
    log.info({ took_ms: Math.round(performance.now() - t0), lsn: r.appliedLsn, seq: led.seq }, 'shard owned');
    // The node's current prices go in like any tick (a replica ignored the ticks until now).
    ownerTicks.push(...board.symbols.flatMap((s) => board.read(s) ?? []).map((quote): Inbound => ({ peer: MAIN, frame: { t: 'tick', quote } })));
  };

  /** A free shard is claimed by its preferred node at once, by any node once it has had an owner (or stayed free long). */
  let freeSinceMs: number | null = null;
  const claimLoop = async (): Promise<void> => {
    while (!r.core.stopping) {
      await new Promise((resolve) => setTimeout(resolve, leaseMs / 4));
      if (role !== 'replica' || claimed || r.core.stopping) continue;
      try {
        const holder = await lease.holderNow();
        if (holder !== null) { freeSinceMs = null; continue; }
        const nowMs = performance.now();
        freeSinceMs ??= nowMs;
        if (!preferred && r.appliedSeq === 0 && nowMs - freeSinceMs < NEVER_OWNED_WAIT_LEASES * leaseMs) continue;
        if ((await lease.claim()).t === 'held') { claimed = true; wake(); }
      } catch (err) {
        log.warn({ err }, 'lease check failed');
      }
    }
  };

  /** Applies a batch as the owner: commands of this node's peers and of other nodes, published as one message. */
  const own = async (batch: Inbound[]): Promise<void> => {
    const remote: Forwarded[] = [];
    for (const msg of forwarded.splice(0)) {
      const request = decodeForward(msg.data);
      if (!request.ok) {
        log.error({ why: request.why }, 'forwarded commands that do not decode dropped (nothing applied)');
        continue;
      }
      const { node: from, peer, items } = request.value;
      const mapped: CommandItem[] = items.map((item) => ({ corr: remote.push({ msg, node: from, peer, corr: item.corr }), cmd: item.cmd }));
      batch.push({ peer: REMOTE, frame: { t: 'cmds', items: mapped } });
    }
    // A dead-man's deadline that has come needs a batch of its own (ShardCore fires it).
    const deadline = r.core.nextDeadlineMs();
    if (batch.length === 0 && (deadline === null || Date.now() < deadline)) return;
    const staged = r.core.stage(batch, 'fire');
    const origins: Origin[] = [];
    const journaledAt = new Map<number, number>();
    for (const j of staged.journaled) {
      if (j.origin?.peer !== REMOTE) continue;
      const f = remote[j.origin.corr - 1]!;
      origins.push([j.lsn, f.node, f.peer, f.corr]);
      journaledAt.set(j.origin.corr, j.lsn);
    }
    let failure: string | null = null;
    if (staged.journaled.length > 0) {
      const t0 = process.hrtime.bigint();
      const result = await r.journal.commit(origins);
      if (result.t === 'stored') {
        stats.sync(Number(process.hrtime.bigint() - t0) / 1000);
        r.appliedSeq = result.seq;
        r.appliedLsn = r.journal.durableLsn;
      } else {
        failure = result.message;
      }
    }
    const frames = r.core.settle(staged, failure);
    // Noted at once: the stream position must never run ahead of what the checkpoint holds.
    r.core.noteDurable();
    if (failure === null) {
      r.checkpoint.noteStream(r.appliedSeq);
      reportedLsn = r.appliedLsn;
    }
    emit(frames);
    answerRemote(frames[REMOTE] ?? null, remote, failure === null ? journaledAt : new Map());
    if (failure !== null) lostBecause = failure;
  };

  const answerRemote = (frame: ShardOutbound | null, remote: readonly Forwarded[], journaledAt: ReadonlyMap<number, number>): void => {
    const byMsg = new Map<Msg, ForwardedAnswer[]>();
    if (frame?.t === 'batch') {
      for (const item of frame.items) {
        if (item.k !== 'reply') continue;
        const f = remote[item.corr - 1]!;
        const lsn = journaledAt.get(item.corr);
        const answer: ForwardedAnswer = lsn === undefined ? { k: 'answer', corr: f.corr, answer: item.answer } : { k: 'journaled', corr: f.corr, lsn };
        const list = byMsg.get(f.msg);
        if (list === undefined) byMsg.set(f.msg, [answer]);
        else list.push(answer);
      }
    }
    for (const [msg, items] of byMsg) msg.respond(encode({ items }));
  };

  // Start: the local checkpoint, then the stream to its end, silently (the main thread loads the
  // tables this writes), then ready.
  await startTail();
  if (!(await catchUp(await tail.streamEnd(), Number.POSITIVE_INFINITY))) throw new Error('unreachable');
  r.checkpoint.writeSync(r.engine.idCounter);
  reportedLsn = r.appliedLsn;
  outgoing.forEach((o) => { o.length = 0; });
  signalMain({ t: 'ready', shard: data.shard, accounts: r.engine.accountCount });
  log.info({ accounts: r.engine.accountCount, lsn: r.appliedLsn, seq: r.appliedSeq }, 'shard replica ready');
  void claimLoop();

  while (!r.core.stopping) {
    const batch = drainBatch(readers, (err, peer) => log.error({ err, peer }, 'undecodable frame dropped'));
    if (ownerTicks.length > 0) batch.unshift(...ownerTicks.splice(0));
    const worked = batch.length > 0 || forwarded.length > 0;
    if (role === 'owner') {
      if (lostBecause === null && !lease.held) lostBecause = 'its lease ran out before it could be renewed';
      if (lostBecause === null) await own(batch);
    } else {
      apply(tail.take());
      const local: Inbound[] = [];
      for (const b of batch) {
        if (b.frame.t === 'cmds') forwarder.forward(b.peer, b.frame.items);
        else if (b.frame.t !== 'tick') local.push(b);
      }
      if (local.length > 0) emit(r.core.settle(r.core.stage(local, 'hold'), null));
      if (claimed) await takeOver();
    }
    answers.forEach((items, peer) => {
      if (items.length > 0) outgoing[peer]!.push({ t: 'batch', shard: data.shard, lsn: reportedLsn, accounts: [], items: items.splice(0) });
    });
    const started = upkeep.run(Date.now(), r, inbox.readable);
    // A replica's quotes are the journaled ones: its live P&L follows the writer's prices less closely.
    const live = r.core.live.sweep(Date.now());
    if (live !== null) outgoing[MAIN]!.push(live);
    for (let peer = 0; peer < writers.length; peer++) {
      while (outgoing[peer]!.length > 0) await writeFrame(writers[peer]!, outgoing[peer]!.shift()!);
    }
    // Given up only once its answers left: a rebuild may wait for NATS.
    if (role === 'owner' && lostBecause !== null) await demote(lostBecause);
    else if (!worked && !started) await nap(upkeep.busy(r) ? BLOCK_BUSY_MS : BLOCK_IDLE_MS);
  }

  if (renewTimer !== null) clearInterval(renewTimer);
  commands?.unsubscribe();
  tail.stop();
  await upkeep.settle(r.checkpoint);
  if (r.core.health.state !== 'failed') r.checkpoint.writeSync(r.engine.idCounter);
  if (role === 'owner') await lease.release();
  // NATS may be gone already: the stop is clean as far as this node goes.
  await nc.drain().catch((err: unknown) => log.warn({ err }, 'NATS connection not drained'));
  await endShardThread(inbox, store, data.shard);
}

runShardThread(main, log);
