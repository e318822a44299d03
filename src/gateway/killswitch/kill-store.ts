// The user kill switches in LMDB (main-thread dbs): `kill_switch` holds each user's state, and
// `kill_switch_log` [user, seq] the journal of every trigger and reset. A trigger's journal entry
// and state are durable before any account is touched, so a crash in between is finished at the
// next start (see KillSwitches.reconcile). Its report goes to `kill_switch_report` [user, seq,
// page] afterwards, in pages of REPORT_PAGE_ENTRIES, one page per event-loop turn: a report of
// 10,000 closes encoded as one value held the main thread, and every client it serves, for 10-25
// ms (the service's profile, webhooks bench).
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

/** Entries [page × REPORT_PAGE_ENTRIES, (page + 1) × REPORT_PAGE_ENTRIES) of each of the report's lists. */
interface ReportPage {
  readonly accounts: readonly string[];
  readonly closed: readonly ClosedJson[];
  readonly cancelled: readonly CancelledEntry[];
  readonly failed: readonly FailedEntry[];
}

export const KILL_SWITCH = table<string, KillSwitchRecord>('kill_switch');
/** [user, seq] → entry. */
const KILL_SWITCH_LOG = table<[string, number], StoredLogEntry>('kill_switch_log');
/** [user, seq, page] → a page of the entry's report. */
const KILL_SWITCH_REPORT = table<[string, number, number], ReportPage>('kill_switch_report');
/**
 * A page of 2,500 closes took 0.6-3 ms to encode once warm, 9-10 ms the first time (lmdb-js's
 * msgpackr meeting the shape); the whole report of 10,000 took 13-19 ms the first two times.
 */
const REPORT_PAGE_ENTRIES = 2500;

const nextTurn = (): Promise<void> => new Promise<void>((resolve) => { setImmediate(resolve); });

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
   * Adds the report to a journal entry once the shards answered. Not awaited by the answer: the
   * trigger itself is journaled already (and each shard journaled its part). Each page is encoded in
   * an event-loop turn of its own; the entry names its pages once they are all written, so a crash
   * midway leaves the entry as it was (no report), never a partial one.
   */
  async report(user: string, entry: KillSwitchLogEntry, report: KillReport): Promise<void> {
    const longest = Math.max(report.accounts.length, report.closed.length, report.cancelled.length, report.failed.length);
    const pages = Math.max(1, Math.ceil(longest / REPORT_PAGE_ENTRIES));
    const written: Promise<boolean>[] = [];
    for (let page = 0; page < pages; page++) {
      await nextTurn();
      const from = page * REPORT_PAGE_ENTRIES;
      const to = from + REPORT_PAGE_ENTRIES;
      written.push(this.reports().put([user, entry.seq, page], {
        accounts: report.accounts.slice(from, to), closed: report.closed.slice(from, to),
        cancelled: report.cancelled.slice(from, to), failed: report.failed.slice(from, to),
      }));
    }
    await Promise.all(written);
    const stored: StoredLogEntry = { ...entry, pages };
    await this.log().put([user, entry.seq], stored);
  }

  /** Newest first. */
  history(user: string, limit: number): KillSwitchLogEntry[] {
    return [...this.log().getRange({ start: [user, Number.MAX_SAFE_INTEGER], end: [user, 0], reverse: true, limit })].map(({ value }) => {
      const { pages, ...entry } = value;
      return pages === undefined ? entry : { ...entry, report: this.joinPages(user, entry.seq) };
    });
  }

  private joinPages(user: string, seq: number): KillReport {
    const pages = [...this.reports().getRange({ start: [user, seq, 0], end: [user, seq, Number.MAX_SAFE_INTEGER] })].map((e) => e.value);
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
