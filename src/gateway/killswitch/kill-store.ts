// The user kill switches in LMDB (main-thread dbs): `kill_switch` holds each user's state, and
// `kill_switch_log` [user, seq] the journal of every trigger and reset. A trigger's journal entry
// and state are durable before any account is touched, so a crash in between is finished at the
// next start (see KillSwitches.reconcile). Its report goes to `kill_switch_report` [user, seq,
// page] afterwards as the JSON text the answer was made of (one page): the text exists already,
// and storing it is a copy (2-9 ms for 10,000 closes), where encoding the report's objects
// with msgpackr held the main thread 4-25 ms (in pages of 2,500 entries, 1-6 ms a page).
import type { UnixMs } from '../../engine/types.js';
import type { Store } from '../../store/store.js';
import { table } from '../../store/table.js';
import type { CancelledEntry, FailedEntry, KillReport } from './report.js';
import type { ClosedJson } from '../close-json.js';
import type { KillSwitchAction, KillSwitchActor, KillSwitchState } from './state.js';

export interface KillSwitchRecord {
  readonly user: string;
  readonly state: KillSwitchState;
  /** When the switch entered its state. */
  readonly sinceMs: UnixMs;
  /** Last TOTP time step a reset accepted; a code is good once. */
}

export interface KillSwitchLogEntry {
  readonly seq: number;
  readonly atMs: UnixMs;
  readonly action: KillSwitchAction;
  readonly actor: KillSwitchActor;
  readonly state: KillSwitchState;
  /** What the shards did; null until they answered (or when nothing was sent). */
  readonly report: KillReport | null;
}

/**
 * A journal entry as stored: `pages` of its report in KILL_SWITCH_REPORT (none while the shards
 * have not answered). An entry stored before reports were paged has `report` inline and no `pages`.
 */
interface StoredLogEntry extends KillSwitchLogEntry { readonly pages?: number }

/**
 * A page of a report: its JSON text (one page holds the whole report), or, as stored before
 * (msgpackr objects), entries [page × 2,500, (page + 1) × 2,500) of each of its lists.
 */
type ReportPage = string | {
  readonly accounts: readonly string[];
  readonly closed: readonly ClosedJson[];
  readonly cancelled: readonly CancelledEntry[];
  readonly failed: readonly FailedEntry[];
};

export const KILL_SWITCH = table<string, KillSwitchRecord>('kill_switch');
/** [user, seq] → entry. */
const KILL_SWITCH_LOG = table<[string, number], StoredLogEntry>('kill_switch_log');
/** [user, seq, page] → a page of the entry's report. */
const KILL_SWITCH_REPORT = table<[string, number, number], ReportPage>('kill_switch_report');
export const armed = (user: string, sinceMs: UnixMs): KillSwitchRecord => ({ user, state: 'Armed', sinceMs });

export class KillStore {
  constructor(private readonly store: Store) {}

  get(user: string): KillSwitchRecord | undefined { return this.states().get(user); }

  all(): KillSwitchRecord[] { return [...this.states().getRange()].map((e) => e.value); }

  /** Writes the state and its journal entry in one transaction; resolves once durable. */
  async record(state: KillSwitchRecord, entry: Omit<KillSwitchLogEntry, 'seq'>): Promise<KillSwitchLogEntry> {
    const logged: KillSwitchLogEntry = { ...entry, seq: this.nextSeq(state.user) };
    await this.store.root.transaction(() => {
      void this.states().put(state.user, state);
      void this.log().put([state.user, logged.seq], logged);
    });
    await this.store.flushed();
    return logged;
  }

  /**
   * Adds the report, as `reportJson` (KillReport's JSON text), to a journal entry once the shards
   * answered. Not awaited by the answer: the trigger itself is journaled already (and each shard
   * journaled its part). The text and the entry naming it are put in one event turn, so lmdb-js
   * commits them in one transaction: a crash leaves the entry as it was (no report), never a
   * partial one.
   */
  async report(user: string, entry: KillSwitchLogEntry, reportJson: string): Promise<void> {
    const stored: StoredLogEntry = { ...entry, pages: 1 };
    await Promise.all([this.reports().put([user, entry.seq, 0], reportJson), this.log().put([user, entry.seq], stored)]);
  }

  /** Newest first. */
  history(user: string, limit: number): KillSwitchLogEntry[] {
    return [...this.log().getRange({ start: [user, Number.MAX_SAFE_INTEGER], end: [user, 0], reverse: true, limit })].map(({ value }) => {
      const { pages, ...entry } = value;
      return pages === undefined ? entry : { ...entry, report: this.joinPages(user, entry.seq) };
    });
  }

  private joinPages(user: string, seq: number): KillReport {
    const pages = [...this.reports().getRange({ start: [user, seq, 0], end: [user, seq, Number.MAX_SAFE_INTEGER] })]
      .map(({ value }) => (typeof value === 'string' ? JSON.parse(value) as KillReport : value));
    return {
      accounts: pages.flatMap((p) => p.accounts), closed: pages.flatMap((p) => p.closed),
      cancelled: pages.flatMap((p) => p.cancelled), failed: pages.flatMap((p) => p.failed),
    };
  }

  private nextSeq(user: string): number {
    const [last] = this.log().getKeys({ start: [user, Number.MAX_SAFE_INTEGER], end: [user, 0], reverse: true, limit: 1 });
    return (Array.isArray(last) ? Number(last[1]) : 0) + 1;
  }

  private states() { return this.store.table(KILL_SWITCH); }

  private log() { return this.store.table(KILL_SWITCH_LOG); }

  private reports() { return this.store.table(KILL_SWITCH_REPORT); }
}
