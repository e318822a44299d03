// The user kill switches in LMDB (main-thread dbs): `kill_switch` holds each user's state, and
// `kill_switch_log` [user, seq] the journal of every trigger and reset with its report. A trigger's
// journal entry and state are durable before any account is touched, so a crash in between is
// finished at the next start (see KillSwitches.reconcile).
import type { UnixMs } from '../../engine/types.js';
import type { Store } from '../../store/store.js';
import { table } from '../../store/table.js';
import type { KillReport } from './report.js';
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

export const KILL_SWITCH = table<string, KillSwitchRecord>('kill_switch');
/** [user, seq] → entry. */
const KILL_SWITCH_LOG = table<[string, number], KillSwitchLogEntry>('kill_switch_log');

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
   * trigger itself is journaled already (and each shard journaled its part), and encoding a report
   * of thousands of closes would only delay the caller; it runs after the current I/O turn.
   */
  report(user: string, entry: KillSwitchLogEntry, report: KillReport): Promise<void> {
    return new Promise<void>((resolve) => { setImmediate(resolve); })
      .then(() => this.log().put([user, entry.seq], { ...entry, report }))
      .then(() => undefined);
  }

  /** Newest first. */
  history(user: string, limit: number): KillSwitchLogEntry[] {
    return [...this.log().getRange({ start: [user, Number.MAX_SAFE_INTEGER], end: [user, 0], reverse: true, limit })].map((e) => e.value);
  }

  private nextSeq(user: string): number {
    const [last] = this.log().getKeys({ start: [user, Number.MAX_SAFE_INTEGER], end: [user, 0], reverse: true, limit: 1 });
    return (Array.isArray(last) ? Number(last[1]) : 0) + 1;
  }

  private states() { return this.store.table(KILL_SWITCH); }

  private log() { return this.store.table(KILL_SWITCH_LOG); }
}
