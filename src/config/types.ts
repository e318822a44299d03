// The validated configuration and bootstrap fixture. Keys are snake_case exactly as in JSON
// (DECISIONS "Running it", "Bootstrap fixture"); every key has its default in config/default.json.
import type { LogLevel } from '../base/log.js';
import type { AccountType, SessionSpec, Source } from '../engine/types.js';

export interface TlsFiles { readonly cert: string | null; readonly key: string | null }
export interface Listener { readonly host: string; readonly port: number }

export type Durability = 'sync' | 'none';
/** How a shard's thread waits for work (src/ring/idle.ts). */
export type ShardIdle = 'park' | 'backoff' | 'spin' | 'async';
/** How a journal write is made durable (src/store/journal/io.ts). */
export type JournalSync = 'fdatasync' | 'dsync';
export type PriceSource = 'simulated' | 'replay' | 'push';

export interface AppConfig {
  readonly http: Listener & { readonly tls: TlsFiles; readonly max_body_bytes: number };
  readonly console: Listener & { readonly admin_token: string | null };
  readonly fix: Listener & {
    readonly sender_prefix: string;
    readonly target_comp_id: string;
    readonly session: SessionSpec;
    readonly tls: TlsFiles;
    readonly heartbeat_s: number;
    readonly logon_timeout_ms: number;
    /** Sessions cancel their key's orders when the connection drops without a Logout (Logon tag 8013 overrides). */
    readonly cancel_on_disconnect: boolean;
  };
  /** Worker shards (each the single writer of its accounts). */
  readonly shards: number;
  /** What a shard's thread does between batches: `park` for a small box, `spin` for a core per shard. */
  readonly shard_idle: ShardIdle;
  readonly journal: {
    /** Size of each journal segment file (zero-filled before use). */
    readonly segment_bytes: number;
    readonly sync_method: JournalSync;
    /**
     * Where the shards' journals live (`<dir>/shard-<i>`), absolute once loaded; null: inside each
     * shard's data directory. A device of its own keeps the checkpoint's flushes out of the
     * journal's (docs/architecture.md, "The journal's own directory").
     */
    readonly dir: string | null;
  };
  readonly data_dir: string;
  /** Addresses/CIDRs whose X-Forwarded-For is believed. */
  readonly trusted_proxies: readonly string[];
  /** `sync`: an order is acknowledged once its journal record is on disk. `none`: written, never synced (benchmarks). */
  readonly durability: Durability;
  readonly log: { readonly level: LogLevel };
  readonly prices: { readonly source: PriceSource; readonly seed: number; readonly file: string | null; readonly speed: number };
  readonly stream: {
    readonly heartbeat_ms: number;
    /** Journaled events kept for `since_seq` replay (DECISIONS: at least 24 h). */
    readonly retention_hours: number;
    /** A connection whose send buffer passes this is closed with 1008. */
    readonly max_buffer_bytes: number;
    readonly max_connections_per_key: number;
    readonly max_symbols_per_connection: number;
  };
  readonly webhooks: { readonly deadline_ms: number; readonly dedup_window_ms: number };
  /** Margin-call and stop-out levels (margin level %), for every group and per account group. */
  readonly margin: MarginConfig;
  /** The range a dead-man's switch timeout may take (0 always disarms). */
  readonly dead_man: { readonly min_timeout_ms: number; readonly max_timeout_ms: number };
  /** Running as one node of a cluster on NATS JetStream (docs/scaling.md); off: one process, no NATS. */
  readonly cluster: ClusterConfig;
  readonly seed: Fixture;
}

export interface MarginLevelsConfig { readonly margin_call_percent: number; readonly stop_out_percent: number }
export interface MarginConfig extends MarginLevelsConfig {
  readonly groups: Readonly<Record<string, MarginLevelsConfig>>;
}

export interface ClusterConfig {
  readonly enabled: boolean;
  /** This node's name, unique among the live nodes (required when enabled). */
  readonly node_id: string | null;
  readonly nats: { readonly servers: readonly string[] };
  /** The cluster's shard count, fixed for its life; replaces `shards` when enabled. */
  readonly shards: number;
  /** Replicas of each shard's journal stream and of the KV buckets (1..5, at most the NATS nodes). */
  readonly replicas: number;
  /** A shard's lease lives this long unless its owner renews it (every third of it). */
  readonly lease_ms: number;
  /** Shards this node claims at once when free; any other free shard only once it has had an owner. */
  readonly preferred_shards: readonly number[];
}

export interface FixtureSymbol {
  readonly name: string;
  readonly digits: number;
  readonly contract_size: number;
  readonly bid: number;
  readonly ask: number;
  readonly volatility: number;
  readonly tick_ms: number;
  readonly max_volume: number;
  readonly session: SessionSpec;
  /** Derived from 6-letter names (EURUSD → EUR/USD) when absent. */
  readonly base_currency: string | null;
  readonly quote_currency: string;
}

export interface FixtureUser { readonly id: string; readonly password: string; readonly totp_secret: string }

export interface FixtureAccount {
  readonly login: string;
  readonly user: string;
  readonly type: AccountType;
  readonly group: string;
  readonly currency: string;
  readonly balance: number;
  readonly leverage: number;
  readonly server: string;
}

export type KeyScope = 'read' | 'trade';
export type KeyStatus = 'Active' | 'Paused' | 'Expired';

export interface FixtureKey {
  readonly id: string;
  readonly secret: string;
  readonly name: string;
  readonly login: string;
  readonly scopes: readonly KeyScope[];
  readonly rate_limit: number;
  readonly ip_whitelist: readonly string[];
  /** ISO 8601 or null. */
  readonly expires_at: string | null;
  readonly status: KeyStatus;
}

export type FixtureSizing =
  | { readonly type: 'fixed'; readonly lots: number }
  | { readonly type: 'multiplier'; readonly factor: number }
  | { readonly type: 'risk_percent'; readonly percent: number };

export interface FixtureWebhook {
  readonly id: string;
  readonly user: string;
  readonly secret: string;
  readonly symbols: readonly string[];
  readonly targets: readonly { readonly login: string; readonly sizing: FixtureSizing }[];
  readonly paused: boolean;
}

export interface Fixture {
  readonly console: { readonly admin_token: string | null };
  readonly symbols: readonly FixtureSymbol[];
  readonly users: readonly FixtureUser[];
  readonly accounts: readonly FixtureAccount[];
  readonly keys: readonly FixtureKey[];
  readonly webhooks: readonly FixtureWebhook[];
}

/** Sources an operator may place through the console (DECISIONS "Console"). */
export const OPERATOR_SOURCES: readonly Source[] = ['manual', 'strategy', 'copy'];

export interface StartOptions {
  readonly config: AppConfig;
  /** Where each setting came from, for the start-up log. */
  readonly configFile: string | null;
  readonly seedFile: string | null;
}
