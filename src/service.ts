// Start-up and shutdown of the whole service, in dependency order: store and fixture, market,
// shards (accounts upserted through their single writer), read model, listeners. `/health` says ok
// only once every listener and shard is up; the `ready` log line carries the bound ports.
import type { StartOptions } from './config/types.js';
import { registerConsole } from './console/register.js';
import { EquityHistory } from './console/equity/equity-history.js';
import { recordShardSamples } from './console/equity/shard-samples.js';
import { chartTables } from './console/tables.js';
import { registerRest } from './gateway/rest/routes.js';
import { registerWebhooks } from './gateway/webhooks/register.js';
import { registerStream } from './gateway/stream/register.js';
import { FixCounters } from './fix/counters.js';
import { startFixGateway } from './fix/start.js';
import { resolveAdminToken } from './console/operator-auth.js';
import { AuditLog } from './console/audit-log.js';
import { auditDeadMen } from './console/dead-man-audit.js';
import type { Command, Quote, SymbolSpec } from './engine/types.js';
import { ClusterNode } from './cluster/node.js';
import { KeyRing } from './gateway/auth/key-ring.js';
import { openReplayGuard, saveReplayGuard } from './gateway/auth/replay-memory.js';
import { TIMESTAMP_WINDOW_MS } from './gateway/auth/verify.js';
import type { GatewayContext } from './gateway/context.js';
import { healthAnswer } from './gateway/health.js';
import { Exchange } from './gateway/http.js';
import { RestLimiter } from './gateway/limits/rest-limiter.js';
import { poolShardStats } from './gateway/metrics/pool-shard-stats.js';
import { ServiceMetrics } from './gateway/metrics/service-metrics.js';
import { HistoryOrderLookup } from './gateway/orders/history-order-lookup.js';
import { listen, type Listening } from './gateway/listen.js';
import { uws } from './gateway/uws.js';
import { systemClock, systemScheduler } from './base/clock.js';
import { Market } from './market/market.js';
import { marketSymbolOf } from './market/market-symbol.js';
import { ShardPool } from './shard/pool.js';
import { ReadModel } from './shard/read-model.js';
import { SecretBox } from './store/secret-box.js';
import { KEYS, USERS, WEBHOOKS } from './store/records.js';
import { KILL_SWITCH } from './gateway/killswitch/kill-store.js';
import { SharedTables } from './cluster/shared-tables.js';
import type { Key } from './store/store.js';
import type { Table } from './store/table.js';
import { reshardDataDir } from './shard/reshard.js';
import { marginPolicyOf } from './config/margin-policy.js';
import { ShardHistory } from './shard/history.js';
import { seedStore } from './store/seed.js';
import { openStore, SYMBOLS, type Store } from './store/store.js';
import { parseCidr, type Cidr } from './base/ip.js';
import type { Logger } from './base/log.js';
import { ownMemory } from './base/thread-memory.js';

const CLIENT_ID_RETENTION_MS = 24 * 3600_000;
/**
 * A shard's engine keeps the client ids of the last minute in memory and looks older ones up in
 * LMDB: kept for 24 h, they were ~200 bytes each on the shard's heap (72 MB per 100 orders/s over
 * an hour), the memory that kept growing under a steady load (issue 13). A retry comes within
 * seconds, and a new id is looked up either way (an LMDB miss: ~0.6 µs here), so a minute is plenty.
 */
const CLIENT_ID_MEMORY_MS = 60_000;
/** The main thread's tables a cluster's nodes share (src/cluster/shared-tables.ts). */
const SHARED_TABLES = [KEYS, USERS, WEBHOOKS, KILL_SWITCH] as unknown as readonly Table<Key, unknown>[];
/** How long a cluster node's start waits for every shard to have an owner (its fixture accounts go there). */
const CLUSTER_SEED_WAIT_MS = 60_000;
const CLUSTER_SEED_RETRY_MS = 250;

export interface Service {
  readonly ports: { readonly http: number; readonly console: number; readonly fix: number };
  readonly adminToken: { readonly token: string; readonly origin: 'config' | 'fixture' | 'file' };
  readonly store: Store;
  readonly pool: ShardPool;
  readonly readModel: ReadModel;
  readonly market: Market;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  stop(): Promise<void>;
}

export async function startService(opts: StartOptions, log: Logger, onFatal: (err: Error) => void): Promise<Service> {
  const { config } = opts;
  // The fixture and what the shards need to recover, from the main environment alone: resharding
  // replays the old shards' journals, so it runs before the store opens the shards' environments.
  const boot = openStore(config.data_dir, config.durability, 0);
  const box = SecretBox.openOrCreate(config.data_dir);
  const seeded = await seedStore(boot, box, config.seed, Date.now());
  if (seeded.created.length + seeded.updated.length > 0) log.info(seeded, 'fixture upserted');
  // Every symbol ever seeded stays tradable (open positions may be on it); prices come from the fixture.
  const symbolList = [...boot.table(SYMBOLS).getRange()].map((e) => e.value);
  const haltedKeys = [...boot.table(KEYS).getRange()].flatMap(({ value: k }) => (k.halted ? [{ login: k.login, keyId: k.id }] : []));
  await boot.close();
  const marginPolicy = marginPolicyOf(config.margin);
  // A cluster's shard count is fixed for its life: its shards' state lives in their streams.
  const clustered = config.cluster.enabled;
  const shards = clustered ? config.cluster.shards : config.shards;
  if (!clustered) {
    const resharded = await reshardDataDir(config.data_dir, config.journal.dir, config.durability, config.shards, {
      symbols: symbolList, haltedKeys, clientIdRetentionMs: CLIENT_ID_RETENTION_MS, marginPolicy, nowMs: Date.now(),
    });
    if (resharded) log.info(resharded, 'accounts moved to their new shards');
  }
  let cluster: ClusterNode | null = null;
  const symbols = new Map(symbolList.map((s) => [s.name, s]));
  const market = await Market.open({
    symbols: config.seed.symbols.map(marketSymbolOf),
    prices: config.prices,
    clock: systemClock,
    scheduler: systemScheduler,
    onSubscriberError: (err, quote) => log.error({ err, symbol: quote.symbol }, 'quote subscriber failed'),
    ...(clustered ? { relay: (quote: Quote) => cluster?.relay(quote) } : {}),
  });
  let shared: SharedTables | null = null;
  if (clustered) {
    cluster = await ClusterNode.join({ config: config.cluster, durability: config.durability, log, onPricing: (on) => market.price(on) });
    shared = new SharedTables(cluster.main, cluster.node, SHARED_TABLES, log);
    await shared.checkMasterKey(box.fingerprint());
  }
  const store = openStore(config.data_dir, config.durability, shards, shared?.observe);

  const pool = await ShardPool.start({
    shards,
    ...(cluster === null ? {} : {
      workerUrl: new URL('./cluster/shard-worker.js', import.meta.url),
      cluster: { node: cluster.node, servers: config.cluster.nats.servers, leaseMs: config.cluster.lease_ms, preferredShards: config.cluster.preferred_shards },
    }),
    dataDir: config.data_dir,
    durability: config.durability,
    idle: config.shard_idle,
    journal: config.journal,
    logLevel: config.log.level,
    symbols: symbolList,
    marginPolicy,
    board: { sab: market.board.sab, symbols: market.board.symbols },
    clientIdRetentionMs: CLIENT_ID_RETENTION_MS,
    clientIdMemoryMs: CLIENT_ID_MEMORY_MS,
    eventRetentionMs: config.stream.retention_hours * 3600_000,
    haltedKeys,
    log,
    onFatal,
  });
  // Every shard has recovered, so its tables hold its whole state; what changes from here on
  // arrives through the client, which delivers nothing before it runs.
  const readModel = new ReadModel(symbolList);
  const history = new ShardHistory(store.shards);
  const metrics = new ServiceMetrics();
  pool.client.listen(readModel);
  pool.client.listen(history);
  pool.client.listen({ events: (events) => metrics.observeEvents(events) });
  // Before the first delivery: a deadline that passed while the service was down fires at start.
  const audit = new AuditLog(store, log);
  auditDeadMen(pool.client, audit, readModel, () => systemClock.nowMs());
  metrics.readShards(poolShardStats(pool));
  // Listening before anything is delivered: the shards sample a new account at once.
  const equity = new EquityHistory(chartTables(store), log);
  const stopEquity = recordShardSamples(pool.client, equity, log);
  readModel.load(store.shards);
  pool.run();
  for (const name of market.board.symbols) {
    const quote = market.board.read(name);
    if (quote) readModel.onQuote(quote);
  }
  const seedWaitUntilMs = Date.now() + (cluster === null ? 0 : CLUSTER_SEED_WAIT_MS);
  for (const a of config.seed.accounts) {
    const cmd: Command = {
      kind: 'upsertAccount',
      account: {
        login: a.login, user: a.user, type: a.type, group: a.group, currency: a.currency,
        leverage: a.leverage, server: a.server, balance: Math.round(a.balance * 100),
      },
    };
    let { answer } = await pool.calls.request(a.login, cmd);
    // In a cluster the account's shard may have no owner yet (its node is starting too).
    while (answer.t === 'unavailable' && Date.now() < seedWaitUntilMs) {
      await new Promise((resolve) => setTimeout(resolve, CLUSTER_SEED_RETRY_MS));
      ({ answer } = await pool.calls.request(a.login, cmd));
    }
    if (answer.t !== 'done') throw new Error(`seed error at account ${a.login}: ${answer.t === 'rejected' ? answer.reject.message : answer.t === 'unavailable' ? answer.message : 'refused'}`);
  }
  market.subscribe((quote) => { readModel.onQuote(quote); pool.client.tick(quote); });
  market.start();
  await cluster?.run((quote) => market.accept(quote), market.board.symbols);

  const replays = await openReplayGuard(store, TIMESTAMP_WINDOW_MS, systemClock.nowMs());
  if (replays.previous === 'unclean') {
    log.warn({ refuse_before_ms: replays.guard.fenceMs }, 'replay guard: the last stop was not clean; POST and DELETE signed before refuse_before_ms are refused');
  }
  const ctx: GatewayContext = {
    config, log, clock: systemClock, store, box, symbols, market, pool, readModel, history,
    auth: { keys: new KeyRing(store, box), replays: replays.guard },
    trustedProxies: config.trusted_proxies.map((t) => parseCidr(t) as Cidr),
    limits: new RestLimiter(),
    orders: new HistoryOrderLookup(history),
    metrics,
  };

  let ready = false;
  const uWS = uws();
  const httpApp = config.http.tls.cert && config.http.tls.key
    ? uWS.SSLApp({ cert_file_name: config.http.tls.cert, key_file_name: config.http.tls.key })
    : uWS.App();
  httpApp.get('/health', (res, req) => {
    const ex = Exchange.open(res, req);
    if (!ex) return;
    const { status, body } = healthAnswer(ready, pool);
    ex.json(status, body);
  });

  const consoleApp = uWS.App();
  const admin = resolveAdminToken(config);
  const rest = registerRest(httpApp, ctx);
  const stream = registerStream(httpApp, ctx);
  const webhooks = await registerWebhooks(httpApp, ctx);
  const consoleService = registerConsole(consoleApp, ctx, { adminToken: admin.token, stats: rest.stats, webhooks, equity, audit });
  const fixCounters = new FixCounters();
  metrics.readFix(fixCounters);
  const fix = await startFixGateway({ ...ctx, counters: fixCounters }, onFatal);
  metrics.readThreads(() => [
    { thread: 'main', memory: ownMemory() },
    { thread: 'fix', memory: fix.memory() },
    ...pool.memory().map((memory, shard) => ({ thread: `shard-${shard}`, memory })),
  ]);
  await shared?.watch(store, {
    [KEYS.name]: (id) => ctx.auth.keys.reload(id as string),
    [WEBHOOKS.name]: (id) => webhooks.book.reload(id as string),
    [KILL_SWITCH.name]: (user) => webhooks.kills.reload(user as string),
  });

  const listeners: Listening[] = [
    await listen(httpApp, config.http.host, config.http.port, 'http'),
    await listen(consoleApp, config.console.host, config.console.port, 'console'),
  ];
  const [http, consoleListener] = listeners as [Listening, Listening];
  ready = true;

  return {
    ports: { http: http.port, console: consoleListener.port, fix: fix.port },
    adminToken: admin,
    store,
    pool,
    readModel,
    market,
    symbols,
    async stop() {
      ready = false;
      for (const l of listeners) l.close();
      // Open keep-alive connections may still send requests: from here on the guard refuses them.
      await saveReplayGuard(store, replays.guard, systemClock.nowMs());
      stream.close();
      await rest.close();
      await fix.close();
      market.stop();
      await pool.stop();
      await cluster?.close();
      shared?.stop();
      await webhooks.close();
      await consoleService.close();
      await stopEquity();
      await store.close();
    },
  };
}
