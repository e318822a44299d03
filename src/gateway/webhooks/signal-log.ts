// The per-webhook signal log (DECISIONS "Signal webhooks"): every signal a webhook received, the
// accepted ones with their fan-out and the refused ones with the reason, so a sender that never
// retries a 4xx (TradingView) leaves a trace its user can find. Entries live in LMDB under
// [webhook id, seq]; a webhook keeps its last SIGNAL_LOG_RETAINED entries. They are stored in the
// shape the console shows them, since a log entry is a record of what was answered.
import type { Database } from 'lmdb';
import type { Store } from '../../store/store.js';
import { table } from '../../store/table.js';
import type { Logger } from '../../base/log.js';
import type { ErrorName } from '../errors.js';

export const SIGNAL_LOG_RETAINED = 10_000;

export type FanoutJson =
  | { readonly login: string; readonly volume: number; readonly ticket: number | null; readonly [more: string]: unknown }
  | { readonly login: string; readonly volume: number; readonly error: ErrorJson; readonly [more: string]: unknown };

export interface ErrorJson { readonly name: ErrorName; readonly message: string; readonly field?: string }

export type SignalOutcome = 'accepted' | 'duplicate' | 'rejected';

export interface SignalLogEntry {
  readonly seq: number;
  readonly signal_id: string;
  readonly at: string;
  readonly status: number;
  readonly outcome: SignalOutcome;
  readonly request_id: string;
  readonly ip: string;
  /** The body's fields as received (never the secret), when it was a JSON object. */
  readonly request: Readonly<Record<string, unknown>> | null;
  readonly error?: ErrorJson;
  readonly fanout?: readonly FanoutJson[];
  readonly duplicate_of?: string;
  readonly latency_ms?: number;
  /** Targets still running after the deadline; their final results replace the timeouts as they come. */
  readonly pending_targets?: number;
}

/** [webhook id, seq] → entry. */
const SIGNAL_LOG = table<[string, number], SignalLogEntry>('signal_log');

export interface LogPage { readonly data: readonly SignalLogEntry[]; readonly next_cursor: string | null }

export const signalIdOf = (webhookId: string, seq: number): string => `${webhookId}:${seq}`;

export class SignalLog {
  private readonly seqs = new Map<string, number>();
  /** Puts not yet committed. */
  private readonly writes = new Set<Promise<unknown>>();
  /** Entries still waiting for late fan-out results. */
  private readonly later = new Set<Promise<unknown>>();

  constructor(private readonly store: Store, private readonly logger: Logger) {}

  /** The next entry number of a webhook (continues after a restart). */
  nextSeq(webhookId: string): number {
    let seq = this.seqs.get(webhookId);
    if (seq === undefined) {
      const [last] = this.db().getKeys({ start: [webhookId, Number.MAX_SAFE_INTEGER], end: [webhookId, 0], reverse: true, limit: 1 });
      seq = Array.isArray(last) ? Number(last[1]) : 0;
    }
    this.seqs.set(webhookId, seq + 1);
    return seq + 1;
  }

  /**
   * Writes (or rewrites, for late fan-out results) an entry; does not wait for the disk and never
   * throws: a signal whose orders went out is answered 200 even if its log entry cannot be kept.
   */
  write(webhookId: string, entry: SignalLogEntry): void {
    try {
      const db = this.db();
      this.track(db.put([webhookId, entry.seq], entry));
      // Entry n pushes out entry n − RETAINED: the bound holds without reading what is stored.
      if (entry.seq > SIGNAL_LOG_RETAINED) this.track(db.remove([webhookId, entry.seq - SIGNAL_LOG_RETAINED]));
    } catch (err) {
      this.logger.error({ err, webhookId, seq: entry.seq }, 'signal log write failed');
    }
  }

  /** Newest first; `before` is the cursor of the previous page. Sees every entry written before the call. */
  async page(webhookId: string, before: number | null, limit: number): Promise<LogPage> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    const start = before === null ? Number.MAX_SAFE_INTEGER : before - 1;
    const data = [...this.db().getRange({ start: [webhookId, start], end: [webhookId, 0], reverse: true, limit: limit + 1 })].map((e) => e.value);
    const more = data.length > limit;
    if (more) data.pop();
    return { data, next_cursor: more ? String(data[data.length - 1]!.seq) : null };
  }

  /** Writes the entry `later` resolves with (the final fan-out of a signal the deadline cut short). */
  writeWhen(webhookId: string, later: Promise<SignalLogEntry>): void {
    this.track(later.then((entry) => this.write(webhookId, entry)), this.later);
  }

  /** Resolves once every write made so far, and every late result still to come, is stored. */
  async settled(): Promise<void> {
    while (this.writes.size + this.later.size > 0) await Promise.all([...this.writes, ...this.later]);
  }

  private track(write: Promise<unknown>, into = this.writes): void {
    const done = write.then(
      () => { into.delete(done); },
      (err: unknown) => { into.delete(done); this.logger.error({ err }, 'signal log write failed'); },
    );
    into.add(done);
  }

  private db(): Database<SignalLogEntry, [string, number]> { return this.store.table(SIGNAL_LOG); }
}
