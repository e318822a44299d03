// Validation of the merged configuration (DECISIONS "Running it"): every key typed and ranged,
// unknown keys refused with their path. Paths are checked as written; the loader resolves them.
import {
  adminToken, at, boolean, cidr, fail, fields, integer, list, nullable, number, oneOf, optional, required, session, text,
  type Fields, type Reader,
} from './check.js';
import { ConfigError, InvalidValue, type ConfigErrorKind } from './errors.js';
import { validateFixture } from './fixture.js';
import { MAX_SHARDS } from '../engine/ids.js';
import type { LogLevel } from '../base/log.js';
import type { AppConfig, ClusterConfig, Durability, JournalSync, MarginConfig, MarginLevelsConfig, PriceSource, ShardIdle, TlsFiles } from './types.js';
import { parseIp } from '../base/ip.js';

const DURABILITIES: readonly Durability[] = ['sync', 'none'];
const SHARD_IDLES: readonly ShardIdle[] = ['park', 'backoff', 'spin', 'async'];
const JOURNAL_SYNCS: readonly JournalSync[] = ['fdatasync', 'dsync'];
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const PRICE_SOURCES: readonly PriceSource[] = ['simulated', 'replay', 'push'];

const port = integer(0, 65535);
const filePath = text(/^[^\u0000]+$/, 'a non-empty path');
const hostname = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const host: Reader<string> = (value, path) => {
  if (typeof value !== 'string' || (parseIp(value) === null && !hostname.test(value))) {
    fail(path, 'an IP address or host name', value);
  }
  return value;
};

const tls: Reader<TlsFiles> = (value, path) => {
  const o = fields(value, path, ['cert', 'key']);
  const cert = required(o, 'cert', path, nullable(filePath));
  const key = required(o, 'key', path, nullable(filePath));
  if ((cert === null) !== (key === null)) {
    throw new InvalidValue(at(path, cert === null ? 'cert' : 'key'), 'cert and key must be set together');
  }
  return { cert, key };
};

function readConfig(raw: unknown): Omit<AppConfig, 'seed'> & { readonly seed: unknown } {
  const o = fields(raw, '', [
    'http', 'console', 'fix', 'shards', 'shard_idle', 'journal', 'data_dir', 'trusted_proxies', 'durability', 'log', 'prices', 'stream',
    'webhooks', 'margin', 'dead_man', 'cluster', 'seed',
  ]);
  const journalO = fields(o.journal, 'journal', ['segment_bytes', 'sync_method', 'dir']);
  const httpO = fields(o.http, 'http', ['host', 'port', 'tls', 'max_body_bytes']);
  const consoleO = fields(o.console, 'console', ['host', 'port', 'admin_token']);
  const fixO = fields(o.fix, 'fix', [
    'host', 'port', 'sender_prefix', 'target_comp_id', 'session', 'tls', 'heartbeat_s', 'logon_timeout_ms', 'cancel_on_disconnect',
  ]);
  const logO = fields(o.log, 'log', ['level']);
  const pricesO = fields(o.prices, 'prices', ['source', 'seed', 'file', 'speed']);
  const streamO = fields(o.stream, 'stream', [
    'heartbeat_ms', 'retention_hours', 'max_buffer_bytes', 'max_connections_per_key', 'max_symbols_per_connection',
  ]);
  const webhooksO = fields(o.webhooks, 'webhooks', ['deadline_ms', 'dedup_window_ms']);
  const prices = readPrices(pricesO);
  const cluster = readCluster(fields(o.cluster, 'cluster', ['enabled', 'node_id', 'nats', 'shards', 'replicas', 'lease_ms', 'preferred_shards']));
  return {
    http: {
      host: required(httpO, 'host', 'http', host),
      port: required(httpO, 'port', 'http', port),
      tls: required(httpO, 'tls', 'http', tls),
      max_body_bytes: required(httpO, 'max_body_bytes', 'http', integer(1024, 64 * 1024 * 1024)),
    },
    console: {
      host: required(consoleO, 'host', 'console', host),
      port: required(consoleO, 'port', 'console', port),
      admin_token: required(consoleO, 'admin_token', 'console', adminToken),
    },
    fix: {
      host: required(fixO, 'host', 'fix', host),
      port: required(fixO, 'port', 'fix', port),
      // SenderCompID is `<prefix>_<login>`: the prefix itself carries no underscore.
      sender_prefix: required(fixO, 'sender_prefix', 'fix', text(/^[A-Za-z0-9]{1,16}$/, '1..16 letters or digits')),
      target_comp_id: required(fixO, 'target_comp_id', 'fix', text(/^[A-Za-z0-9_.-]{1,32}$/, '1..32 characters of A-Z a-z 0-9 _ . -')),
      session: required(fixO, 'session', 'fix', session),
      tls: required(fixO, 'tls', 'fix', tls),
      heartbeat_s: required(fixO, 'heartbeat_s', 'fix', integer(1, 300)),
      logon_timeout_ms: required(fixO, 'logon_timeout_ms', 'fix', integer(100, 60_000)),
      cancel_on_disconnect: required(fixO, 'cancel_on_disconnect', 'fix', boolean),
    },
    shards: required(o, 'shards', '', integer(1, 64)),
    shard_idle: required(o, 'shard_idle', '', oneOf(SHARD_IDLES)),
    journal: {
      // Small segments switch often (tests use 64 KiB); beyond 1 GiB only start-up reads grow.
      segment_bytes: required(journalO, 'segment_bytes', 'journal', integer(64 * 1024, 1024 * 1024 * 1024)),
      sync_method: required(journalO, 'sync_method', 'journal', oneOf(JOURNAL_SYNCS)),
      dir: required(journalO, 'dir', 'journal', nullable(filePath)),
    },
    data_dir: required(o, 'data_dir', '', filePath),
    trusted_proxies: required(o, 'trusted_proxies', '', list(cidr, { unique: true })),
    durability: required(o, 'durability', '', oneOf(DURABILITIES)),
    log: { level: required(logO, 'level', 'log', oneOf(LOG_LEVELS)) },
    prices,
    stream: {
      heartbeat_ms: required(streamO, 'heartbeat_ms', 'stream', integer(100, 600_000)),
      // DECISIONS "WebSocket messages": replay retention is at least 24 h.
      retention_hours: required(streamO, 'retention_hours', 'stream', integer(24, 24 * 366)),
      max_buffer_bytes: required(streamO, 'max_buffer_bytes', 'stream', integer(64 * 1024, 1024 * 1024 * 1024)),
      max_connections_per_key: required(streamO, 'max_connections_per_key', 'stream', integer(1, 1000)),
      max_symbols_per_connection: required(streamO, 'max_symbols_per_connection', 'stream', integer(1, 100_000)),
    },
    webhooks: {
      // TradingView gives up after 3 s (DECISIONS "Signal webhooks"): the answer must come first.
      deadline_ms: required(webhooksO, 'deadline_ms', 'webhooks', integer(1, 2900)),
      dedup_window_ms: required(webhooksO, 'dedup_window_ms', 'webhooks', integer(1000, 3_600_000)),
    },
    margin: required(o, 'margin', '', margin),
    dead_man: required(o, 'dead_man', '', deadMan),
    cluster,
    seed: optional(o, 'seed', '', {}, (v) => v),
  };
}

const percent = number({ atLeast: 0, atMost: 10_000, decimals: 2 });

/** Stop-out at or below margin call (0 turns either off). */
const marginLevels = (known: readonly string[]): Reader<MarginLevelsConfig & Fields> => (value, path) => {
  const o = fields(value, path, known);
  const levels = {
    ...o,
    margin_call_percent: required(o, 'margin_call_percent', path, percent),
    stop_out_percent: required(o, 'stop_out_percent', path, percent),
  };
  if (levels.margin_call_percent > 0 && levels.stop_out_percent > levels.margin_call_percent) {
    throw new InvalidValue(at(path, 'stop_out_percent'), `must not exceed margin_call_percent (${levels.margin_call_percent})`);
  }
  return levels;
};

const margin: Reader<MarginConfig> = (value, path) => {
  const top = marginLevels(['margin_call_percent', 'stop_out_percent', 'groups'])(value, path);
  const groupsO = required(top, 'groups', path, (v, p) => fields(v, p, Object.keys(v ?? {})));
  const groups: Record<string, MarginLevelsConfig> = {};
  for (const [group, levels] of Object.entries(groupsO)) {
    const { margin_call_percent, stop_out_percent } = marginLevels(['margin_call_percent', 'stop_out_percent'])(levels, at(at(path, 'groups'), group));
    groups[group] = { margin_call_percent, stop_out_percent };
  }
  return { margin_call_percent: top.margin_call_percent, stop_out_percent: top.stop_out_percent, groups };
};

const deadMan: Reader<AppConfig['dead_man']> = (value, path) => {
  const o = fields(value, path, ['min_timeout_ms', 'max_timeout_ms']);
  const min = required(o, 'min_timeout_ms', path, integer(100, 3_600_000));
  const max = required(o, 'max_timeout_ms', path, integer(100, 24 * 3_600_000));
  if (max < min) throw new InvalidValue(at(path, 'max_timeout_ms'), `must be at least min_timeout_ms (${min})`);
  return { min_timeout_ms: min, max_timeout_ms: max };
};

const natsUrl = text(/^(nats|tls):\/\/[^\s/]+$|^[^\s/:]+:\d{1,5}$/, 'a NATS URL (nats://host:port) or host:port');

function readCluster(o: Fields): ClusterConfig {
  const natsO = fields(o.nats, 'cluster.nats', ['servers']);
  const enabled = required(o, 'enabled', 'cluster', boolean);
  const nodeId = required(o, 'node_id', 'cluster', nullable(text(/^[A-Za-z0-9_-]{1,32}$/, '1..32 characters of A-Z a-z 0-9 _ -')));
  if (enabled && nodeId === null) throw new InvalidValue('cluster.node_id', 'is required when cluster.enabled is true');
  const shards = required(o, 'shards', 'cluster', integer(1, MAX_SHARDS));
  const preferred = required(o, 'preferred_shards', 'cluster', list(integer(0, MAX_SHARDS - 1), { unique: true }));
  const outside = preferred.find((s) => s >= shards);
  if (outside !== undefined) throw new InvalidValue('cluster.preferred_shards', `shard ${outside} is not below cluster.shards (${shards})`);
  const servers = required(natsO, 'servers', 'cluster.nats', list(natsUrl, { unique: true }));
  if (enabled && servers.length === 0) throw new InvalidValue('cluster.nats.servers', 'needs at least one server when cluster.enabled is true');
  return {
    enabled,
    node_id: nodeId,
    nats: { servers },
    shards,
    replicas: required(o, 'replicas', 'cluster', integer(1, 5)),
    // Below 500 ms a busy 2-core box misses renewals; above a minute failover is no longer failover.
    lease_ms: required(o, 'lease_ms', 'cluster', integer(500, 60_000)),
    preferred_shards: preferred,
  };
}

function readPrices(o: Fields): AppConfig['prices'] {
  const source = required(o, 'source', 'prices', oneOf(PRICE_SOURCES));
  const file = required(o, 'file', 'prices', nullable(filePath));
  if (source === 'replay' && file === null) throw new InvalidValue('prices.file', 'is required when prices.source is "replay"');
  return {
    source,
    seed: required(o, 'seed', 'prices', integer(0, 2 ** 32 - 1)),
    file,
    speed: required(o, 'speed', 'prices', number({ above: 0, atMost: 1000 })),
  };
}

/**
 * The configuration, typed, or a ConfigError naming the first bad key. The fixture under `seed`
 * is reported as part of the configuration, or, with `seedKind` "seed", as a document of its own
 * (it came from `--seed FILE`).
 */
export function validateConfig(raw: unknown, seedKind: ConfigErrorKind = 'config'): AppConfig {
  let config: ReturnType<typeof readConfig>;
  try {
    config = readConfig(raw);
  } catch (e) {
    if (e instanceof InvalidValue) throw new ConfigError('config', e.path, e.reason);
    throw e;
  }
  const seed = seedKind === 'seed' ? validateFixture(config.seed) : validateFixture(config.seed, 'config', 'seed');
  return { ...config, seed };
}
