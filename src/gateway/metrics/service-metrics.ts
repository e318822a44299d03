// The service's Prometheus metrics (prom-client), scraped at GET /metrics on the console listener.
// Every metric is documented in docs/metrics.md; a test checks the two lists are the same.
// Gateway metrics are observed where they happen on the main thread; the FIX thread counts into
// shared memory (src/fix/counters.ts, read through a FixCountsSource) and the shards' figures come through a ShardStatsSource, both read
// at scrape time.
import fs from 'node:fs';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineEvent } from '../../engine/types.js';
import type { ThreadMemory } from '../../base/thread-memory.js';
import { registerShardMetrics, type ShardStatsSource } from './shard-stats.js';

/** What the FIX thread counted, read at each scrape (the root wires the FIX thread's counters in). */
export interface FixCountsSource {
  readonly countedTypes: readonly string[];
  sessions(): number;
  logons(): number;
  messages(direction: 'in' | 'out', msgType: string): number;
}

/** Seconds; REST answers take tens of µs (reads) to ms (fsynced orders). */
const LATENCY_BUCKETS_S = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/**
 * RssAnon of /proc/self/status: LMDB maps its files, so the pages it reads or writes count in the
 * resident size and grow with the data; the anonymous part is what the process itself keeps.
 * Where /proc is not there, the whole resident size.
 */
function anonResidentBytes(): number {
  try {
    const kb = /^RssAnon:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (kb !== null) return Number(kb[1]) * 1024;
  } catch {
    // Not Linux: below.
  }
  return process.memoryUsage.rss();
}

/** A thread's memory figures, by the thread's name (`main`, `fix`, `shard-0`, …). */
export interface ThreadMemorySample { readonly thread: string; readonly memory: ThreadMemory }

const THREAD_GAUGES = [
  ['tas_thread_heap_used_bytes', 'JavaScript heap in use, by thread', 'heapUsedBytes'],
  ['tas_thread_heap_total_bytes', 'JavaScript heap held from the system (used or not), by thread', 'heapTotalBytes'],
  ['tas_thread_external_bytes', 'Memory outside the heap owned by a thread\'s objects (buffers; shared ones count in each thread holding them), by thread', 'externalBytes'],
  ['tas_thread_malloced_bytes', 'Memory V8 allocated with malloc for a thread, by thread', 'mallocedBytes'],
] as const;

export type KillSwitchScope = 'user' | 'account' | 'key';

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'status'>;
  private readonly latency: Histogram<'route'>;
  private readonly orders: Counter<'source' | 'result'>;
  private readonly wsConnections: Gauge;
  private readonly wsOpened: Counter;
  private readonly wsConflated: Counter;
  private readonly killSwitch: Counter<'scope'>;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'tas_http_requests_total', help: 'HTTP answers of the REST API, the webhooks and the public routes, by route and status',
      labelNames: ['route', 'status'], registers,
    });
    this.latency = new Histogram({
      name: 'tas_http_request_duration_seconds', help: 'Time from a request\'s arrival to its answer, by route',
      labelNames: ['route'], buckets: LATENCY_BUCKETS_S, registers,
    });
    this.orders = new Counter({
      name: 'tas_orders_total', help: 'Order events the shards committed, by source and resulting status (pending, filled, cancelled, rejected)',
      labelNames: ['source', 'result'], registers,
    });
    this.wsConnections = new Gauge({ name: 'tas_ws_connections', help: 'Open WebSocket stream connections', registers });
    new Gauge({
      name: 'tas_process_resident_bytes', help: 'Resident memory of the whole process (every thread)', registers,
      collect() { this.set(process.memoryUsage.rss()); },
    });
    new Gauge({
      name: 'tas_process_anon_resident_bytes', help: 'Resident memory not backed by files: heaps and buffers, without the LMDB pages mapped from disk', registers,
      collect() { this.set(anonResidentBytes()); },
    });
    new Gauge({
      name: 'tas_main_heap_used_bytes', help: 'JavaScript heap in use on the main thread', registers,
      collect() { this.set(process.memoryUsage().heapUsed); },
    });
    this.wsOpened = new Counter({ name: 'tas_ws_connections_opened_total', help: 'WebSocket stream connections accepted', registers });
    this.wsConflated = new Counter({
      name: 'tas_ws_quotes_conflated_total', help: 'Quotes not sent to a slow consumer because a newer quote of the symbol replaced them', registers,
    });
    this.killSwitch = new Counter({
      name: 'tas_kill_switch_triggers_total', help: 'Kill switches turned on, by scope (user, account, key)', labelNames: ['scope'], registers,
    });
  }

  /** A REST, webhook or public answer; `startedNs` is process.hrtime.bigint() at its arrival. */
  observeRequest(route: string, status: number, startedNs: bigint): void {
    this.requests.inc({ route, status: String(status) });
    this.latency.observe({ route }, Number(process.hrtime.bigint() - startedNs) / 1e9);
  }

  /** A shard batch's events as the main thread receives them. */
  observeEvents(events: readonly EngineEvent[]): void {
    for (const e of events) if (e.type === 'order') this.orders.inc({ source: e.order.source, result: e.order.status });
  }

  wsOpen(): void { this.wsOpened.inc(); this.wsConnections.inc(); }

  wsClose(): void { this.wsConnections.dec(); }

  quotesConflated(count: number): void { if (count > 0) this.wsConflated.inc(count); }

  killSwitchTriggered(scope: KillSwitchScope): void { this.killSwitch.inc({ scope }); }

  /** The FIX thread's counters, read at each scrape. */
  readFix(counters: FixCountsSource): void {
    const registers = [this.registry];
    new Gauge({
      name: 'tas_fix_sessions', help: 'FIX sessions logged on', registers,
      collect() { this.set(counters.sessions()); },
    });
    new Counter({
      name: 'tas_fix_logons_total', help: 'FIX Logons accepted', registers,
      collect() { this.reset(); this.inc(counters.logons()); },
    });
    new Counter({
      name: 'tas_fix_messages_total', help: 'FIX messages by direction (in, out) and MsgType (35): "other" for types the gateway does not handle, "admin" for the session-level messages it sends',
      labelNames: ['direction', 'msg_type'], registers,
      collect() {
        this.reset();
        for (const direction of ['in', 'out'] as const) {
          for (const msgType of counters.countedTypes) {
            const n = counters.messages(direction, msgType);
            if (n > 0) this.inc({ direction, msg_type: msgType }, n);
          }
        }
      },
    });
  }

  /** Every thread's memory figures, read at each scrape. */
  readThreads(source: () => readonly ThreadMemorySample[]): void {
    const registers = [this.registry];
    for (const [name, help, field] of THREAD_GAUGES) {
      new Gauge({
        name, help, labelNames: ['thread'], registers,
        collect() {
          this.reset();
          for (const t of source()) this.set({ thread: t.thread }, t.memory[field]);
        },
      });
    }
  }

  readShards(source: ShardStatsSource): void {
    registerShardMetrics(this.registry, source);
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ readonly text: string; readonly contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
