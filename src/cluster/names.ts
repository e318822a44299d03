// The names a tas cluster uses in NATS: one journal stream per shard, the subjects commands and
// quotes travel on, and the KV buckets of leases and shared main-thread data. One place, so a
// node and the tests (which read the streams to check what was acknowledged) agree.

/** The JetStream stream holding shard `shard`'s journal: one message per committed batch. */
export const journalStream = (shard: number): string => `TAS_JOURNAL_${shard}`;
export const journalSubject = (shard: number): string => `tas.journal.${shard}`;

/** Commands another node forwards to the owner of `shard` (request/reply). */
export const commandSubject = (shard: number): string => `tas.cmd.${shard}`;

/** Quotes, one subject per symbol, published once by the node that prices the market. */
export const QUOTE_STREAM = 'TAS_QUOTES';
export const quoteSubject = (symbol: string): string => `tas.quote.${symbol}`;
export const QUOTE_SUBJECTS = 'tas.quote.*';

/** Leases (shards, the market, live nodes), with the bucket's TTL as the lease. */
export const LEASE_BUCKET = 'tas_leases';
export const shardLease = (shard: number): string => `shard.${shard}`;
export const MARKET_LEASE = 'market';
export const nodeLease = (node: string): string => `node.${node}`;

/** The main thread's shared data (keys, users, webhooks, kill switches, key statistics). */
export const MAIN_BUCKET = 'tas_main';
