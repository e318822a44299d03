// A tas cluster for tests: three NATS servers (Debian's nats-server) in one JetStream cluster and
// tas nodes on loopback, each node a real process with its own data dir, each preferring one
// shard so nodes started together own one each.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.js';
import { startServer, tempDir, type RunningServer, type ServerOptions } from './server.js';

export interface ClusterOptions {
  readonly nodes?: number;
  readonly shards?: number;
  readonly replicas?: number;
  readonly leaseMs?: number;
  /** Merged into every node's config. */
  readonly config?: Record<string, unknown>;
  readonly seed?: Record<string, unknown>;
}

export interface TasCluster {
  readonly nats: NatsCluster;
  readonly nodes: RunningServer[];
  readonly leaseMs: number;
  /** Starts node `i` (again) on its data dir. */
  start(i: number): Promise<RunningServer>;
  stop(): Promise<void>;
}

export const nodeId = (i: number): string => `n${i + 1}`;
const STOP_GRACE_MS = 10_000;

export async function startTasCluster(opts: ClusterOptions = {}): Promise<TasCluster> {
  const size = opts.nodes ?? 3;
  const shards = opts.shards ?? size;
  const leaseMs = opts.leaseMs ?? 2000;
  const nats = await startNatsCluster(tempDir('tas-nats-'));
  const dataDirs = Array.from({ length: size }, () => tempDir('tas-node-'));
  // Every node unseals the same secrets: one master key, copied into each data dir.
  const masterKey = `${randomBytes(32).toString('base64')}\n`;
  for (const dir of dataDirs) fs.writeFileSync(path.join(dir, 'master.key'), masterKey, { mode: 0o600 });
  const options = (i: number): ServerOptions => ({
    dataDir: dataDirs[i]!,
    config: {
      ...opts.config,
      cluster: {
        enabled: true, node_id: nodeId(i), nats: { servers: nats.urls }, shards, replicas: opts.replicas ?? 3,
        lease_ms: leaseMs, preferred_shards: Array.from({ length: shards }, (_, s) => s).filter((s) => s % size === i),
      },
    },
    ...(opts.seed === undefined ? {} : { seed: opts.seed }),
  });
  const nodes: RunningServer[] = [];
  const start = async (i: number): Promise<RunningServer> => {
    const node = await startServer(options(i));
    nodes[i] = node;
    return node;
  };
  try {
    await Promise.all(dataDirs.map((_, i) => start(i)));
  } catch (err) {
    for (const n of nodes) await n?.kill().catch(() => undefined);
    await nats.stop();
    throw err;
  }
  return {
    nats, nodes, leaseMs, start,
    stop: async () => {
      // A node whose NATS is gone may not finish a clean stop: it is killed after a while.
      await Promise.all(nodes.map(async (n) => {
        const timer = setTimeout(() => { void n.kill(); }, STOP_GRACE_MS);
        await n.stop().catch(() => undefined);
        clearTimeout(timer);
      }));
      await nats.stop();
    },
  };
}
