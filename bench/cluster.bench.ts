// The cluster's order path (docs/scaling.md): durable orders through shards whose journal is a
// JetStream stream, on a local NATS cluster of three servers, without HTTP. Two "nodes" run in
// this process (each its own shard pool, threads and NATS connections): node A owns every shard,
// node B owns none, so an order sent through B crosses to A over NATS and is answered when B's
// replica applied it. Rows: the stream with 1 replica and with 3 (an acknowledgement waits for a
// quorum of 2), and the cost of the cross-node hop; `make bench`'s shard suite has the
// single-process figures to set beside them. On 2 cores every process shares them: the figures
// are a cost per order, not a scaling curve.
import { NO_STOP_OUT } from '../src/engine/stop-out.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ClusterConfig } from '../src/config/types.js';
import type { SymbolSpec } from '../src/engine/types.js';
import { QuoteBoard } from '../src/market/quote-board.js';
import { ClusterNode } from '../src/cluster/node.js';
import { startNatsCluster } from '../src/cluster/nats-servers.js';
import { ShardPool } from '../src/shard/pool.js';
import { createLogger } from '../src/base/log.js';
import { fixedRate, placeOk, throughput } from './shard.bench.js';
import { perSec, us, type Row } from './support/stats.js';

const SHARDS = 2;
const ACCOUNTS = 200;
const RATE_PER_SEC = 500;
const SECONDS = 3;
const SYMBOL: SymbolSpec = {
  name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7',
};

interface Node { readonly pool: ShardPool; readonly member: ClusterNode }

async function startNode(dir: string, config: ClusterConfig, board: QuoteBoard): Promise<Node> {
  const log = createLogger('warn');
  const member = await ClusterNode.join({ config, durability: 'sync', log, onPricing: () => undefined });
  const pool = await ShardPool.start({
    shards: SHARDS, dataDir: dir, durability: 'sync', logLevel: 'warn', symbols: [SYMBOL], marginPolicy: NO_STOP_OUT,
    board: { sab: board.sab, symbols: board.symbols }, clientIdRetentionMs: 24 * 3600_000, clientIdMemoryMs: 60_000, eventRetentionMs: 24 * 3600_000, haltedKeys: [], log,
    idle: 'park', journal: { segment_bytes: 32 << 20, sync_method: 'fdatasync', dir: null },
    workerUrl: new URL('../src/cluster/shard-worker.js', import.meta.url),
    cluster: { node: config.node_id!, servers: config.nats.servers, leaseMs: config.lease_ms, preferredShards: config.preferred_shards },
    onFatal: (err) => { throw err; },
  });
  pool.run();
  return { pool, member };
}

async function measure(replicas: number): Promise<Row[]> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-cluster-'));
  const nats = await startNatsCluster(path.join(root, 'nats'));
  const base = { enabled: true, nats: { servers: nats.urls }, shards: SHARDS, replicas, lease_ms: 2000 };
  const board = QuoteBoard.create([SYMBOL.name]);
  const quote = { symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: Date.now() };
  board.write(quote);
  const nodes: Node[] = [];
  try {
    nodes.push(await startNode(path.join(root, 'a'), { ...base, node_id: 'a', preferred_shards: [0, 1] }, board));
    nodes.push(await startNode(path.join(root, 'b'), { ...base, node_id: 'b', preferred_shards: [] }, board));
    const [a, b] = nodes as [Node, Node];
    const logins = Array.from({ length: ACCOUNTS }, (_, i) => String(600_000 + i));
    // Node A's shards are claimed a moment after start: the first upserts wait for them.
    for (const login of logins) {
      for (;;) {
        const { answer } = await a.pool.calls.request(login, {
          kind: 'upsertAccount',
          account: { login, user: 'bench', type: 'demo', group: 'bench', currency: 'USD', leverage: 100, server: 'bench', balance: 100_000_000 },
        });
        if (answer.t === 'done') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    a.pool.client.tick(quote);
    await placeOk(a.pool, logins[0]!);
    await placeOk(b.pool, logins[0]!);
    await throughput(a.pool, logins, 500, 32, root); // warm-up
    const own = await throughput(a.pool, logins, 5000, 128, root);
    const ownAt = await fixedRate(a.pool, logins, RATE_PER_SEC, SECONDS);
    const hop = await throughput(b.pool, logins, 5000, 128, root);
    const hopAt = await fixedRate(b.pool, logins, RATE_PER_SEC, SECONDS);
    return [
      { name: `cluster, ${replicas} replica${replicas > 1 ? 's' : ''}: orders on the owner, 128 in flight`, median: '-', p99: '-', throughput: perSec(own.perSec) },
      { name: `cluster, ${replicas} replica${replicas > 1 ? 's' : ''}: order ack on the owner at ${RATE_PER_SEC}/s`, median: us(ownAt.p50), p99: us(ownAt.p99) },
      { name: `cluster, ${replicas} replica${replicas > 1 ? 's' : ''}: through another node, 128 in flight`, median: '-', p99: '-', throughput: perSec(hop.perSec) },
      {
        name: `cluster, ${replicas} replica${replicas > 1 ? 's' : ''}: order ack through another node at ${RATE_PER_SEC}/s`, median: us(hopAt.p50), p99: us(hopAt.p99),
        note: `the hop costs ${us(hopAt.p50 - ownAt.p50)} at the median`,
      },
    ];
  } finally {
    for (const n of nodes) await n.pool.stop();
    for (const n of nodes) await n.member.close();
    await nats.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function benchCluster(): Promise<Row[]> {
  return [...await measure(1), ...await measure(3)];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchCluster());
}
