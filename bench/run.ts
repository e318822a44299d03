// `make bench`: every benchmark in one run, one table per suite, with the machine's load beside
// each (other processes on a 2-core box skew every figure). `node dist/bench/run.js engine shard`
// runs only the named suites.
import { availableParallelism, loadavg } from 'node:os';
import { benchCluster } from './cluster.bench.js';
import { benchEngine } from './engine.bench.js';
import { benchFixCodec } from './fix-codec.bench.js';
import { benchFixRoundtrip } from './fix-roundtrip.bench.js';
import { benchJournal } from './journal.bench.js';
import { benchLivePnl } from './live-pnl.bench.js';
import { benchMarket } from './market.bench.js';
import { benchRest } from './rest.bench.js';
import { benchRing } from './ring.bench.js';
import { benchShard } from './shard.bench.js';
import { benchStream } from './stream.bench.js';
import { benchStreamFlood } from './stream-flood.bench.js';
import { benchWebhooks } from './webhooks.bench.js';
import { perSec, us, type Row } from './support/stats.js';

const ns = (v: number): string => (v >= 1000 ? us(v / 1000) : `${v.toFixed(0)} ns`);
const maybeUs = (v: number | null): string => (v === null ? '-' : us(v));

const suites: Record<string, () => Promise<Row[]>> = {
  engine: async () => (await benchEngine()).map((r) => ({
    name: r.name, median: r.median, p99: r.p99, throughput: perSec(r.opsPerSec),
    note: `${r.vsBaseline} the quiet tick${r.fillsPerSec > 0 ? `; ${perSec(r.fillsPerSec)} fills (goal > 1M/s)` : ''}`,
  })),
  market: async () => (await benchMarket()).map((r) => ({ name: r.name, median: ns(r.median), p99: ns(r.p99), throughput: perSec(r.opsPerSec) })),
  ring: async () => (await benchRing()).map((r) => ({
    name: r.name, median: maybeUs(r.median), p99: maybeUs(r.p99), throughput: r.throughput === null ? '' : perSec(r.throughput),
  })),
  'fix-codec': async () => (await benchFixCodec()).map((r) => (r.name.includes('ratio')
    ? { name: r.name, median: `${r.median.toFixed(1)}x`, p99: '-' }
    : { name: r.name, median: ns(r.median), p99: ns(r.p99), throughput: perSec(r.opsPerSec) })),
  journal: benchJournal,
  shard: benchShard,
  cluster: benchCluster,
  rest: benchRest,
  stream: benchStream,
  'live-pnl': benchLivePnl,
  'stream-flood': benchStreamFlood,
  'fix-roundtrip': benchFixRoundtrip,
  webhooks: benchWebhooks,
};

const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const wanted = process.argv.slice(2);
for (const name of wanted) if (!(name in suites)) throw new Error(`unknown suite ${name}; suites: ${Object.keys(suites).join(', ')}`);

console.log(`node ${process.version}, ${availableParallelism()} cores, load average ${load()}`);
for (const [name, run] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n## ${name} (load before: ${load()})`);
  console.table(await run());
}
