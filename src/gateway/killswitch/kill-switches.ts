// The kill switch orchestration (spec 7, DECISIONS "Kill switch"). The user switch spans every
// account of the user in every shard: a trigger is journaled (durable) first, then the user's
// webhooks are paused (durable), then every account gets `killSwitch(user, on)` at once, so the
// shards close and cancel in parallel, each in one committed batch; the report collects what each
// did. The account switch is one account's flag. The engine refuses every non-manual trading call
// of a halted account (REST, FIX, webhooks) with kill_switch_active, so no gateway checks it twice.
import { ApiError } from '../errors.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { WebhookBook } from '../webhooks/webhook-book.js';
import { iso } from '../wire.js';
import type { ReadModel } from '../../shard/read-model.js';
import { USERS, type UserRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { armed, KillStore, type KillSwitchLogEntry, type KillSwitchRecord } from './kill-store.js';
import type { FailedEntry, KillReport } from './report.js';
import { killSwitchTransition, type KillSwitchAction, type KillSwitchActor, type KillSwitchState } from './state.js';
import { sweep, type SweepDeps } from './sweep.js';

export interface KillSwitchDeps extends SweepDeps {
  readonly store: Store;
  readonly readModel: ReadModel;
  readonly metrics: Pick<ServiceMetrics, 'killSwitchTriggered'>;
  readonly book: WebhookBook;
}

export interface KillSwitchView { readonly user: string; readonly state: KillSwitchState; readonly since: string }
/**
 * A trigger's answer: what it did, and the answer's JSON text (`{...view, ...report,
 * paused_webhooks}`), made from the report's text, which the journal stores as it is.
 */
export interface TriggerAnswer { readonly view: KillSwitchView; readonly report: KillReport; readonly paused: readonly string[]; readonly json: string }
export interface ResetAnswer extends KillSwitchView { readonly released: readonly string[]; readonly failed: readonly FailedEntry[] }
/** What one step of the table did: the new state, and the report of its effect (empty for none) with its JSON text. */
interface Applied { readonly view: KillSwitchView; readonly report: KillReport; readonly reportJson: string; readonly paused: readonly string[] }
export type AccountKillAnswer = { readonly login: string; readonly active: boolean } & Omit<KillReport, 'accounts'>;

const NO_REPORT: KillReport = { accounts: [], closed: [], cancelled: [], failed: [] };
const NO_REPORT_JSON = JSON.stringify(NO_REPORT);

/**
 * The members of JSON object texts as one object's text: each text is a JSON object (`{...}`), so
 * without its braces it is its members; empty objects add none. The keys must not repeat.
 */
function joinObjects(texts: readonly string[]): string {
  return `{${texts.map((t) => t.slice(1, -1)).filter((members) => members !== '').join(',')}}`;
}

export class KillSwitches {
  private readonly kills: KillStore;
  private readonly states = new Map<string, KillSwitchRecord>();
  /** Per user, the tail of its queue: triggers and resets of one user never interleave. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Reports still being written to the journal. */
  private readonly reports = new Set<Promise<void>>();

  constructor(private readonly deps: KillSwitchDeps) {
    this.kills = new KillStore(deps.store);
    for (const record of this.kills.all()) this.states.set(record.user, record);
  }

  isTriggered(user: string): boolean { return this.states.get(user)?.state === 'Triggered'; }

  /** Re-reads one user's state after another writer changed it (a cluster node, src/cluster/shared-tables.ts). */
  reload(user: string): void {
    const record = this.kills.get(user);
    if (record === undefined) this.states.delete(user);
    else this.states.set(user, record);
  }

  view(user: string): KillSwitchView {
    this.requireUser(user);
    const record = this.states.get(user);
    return { user, state: record?.state ?? 'Armed', since: record === undefined ? iso(this.userRecord(user)!.createdAt) : iso(record.sinceMs) };
  }

  trigger(user: string, actor: KillSwitchActor): Promise<TriggerAnswer> {
    this.requireUser(user);
    return this.serial(user, async () => {
      const { view, report, reportJson, paused } = await this.apply(user, 'trigger', actor);
      // The report is most of the answer (1.5 MB for 10,000 closes): its text is made once.
      return { view, report, paused, json: joinObjects([JSON.stringify(view), reportJson, JSON.stringify({ paused_webhooks: paused })]) };
    });
  }

  /**
   * The caller has already checked the fresh TOTP code a reset needs (console/fresh-totp.ts: users
   * must send one, the operator may omit it, DECISIONS "Console"), so codes have one record of use.
   */
  reset(user: string, actor: KillSwitchActor): Promise<ResetAnswer> {
    this.requireUser(user);
    return this.serial(user, async () => {
      const { view, report } = await this.apply(user, 'reset', actor);
      const failedLogins = new Set(report.failed.map((f) => f.login));
      return { ...view, released: report.accounts.filter((l) => !failedLogins.has(l)), failed: report.failed };
    });
  }

  /** The account-level flag (console): on closes and cancels like the user switch, for this account. */
  async setAccount(login: string, active: boolean): Promise<AccountKillAnswer> {
    const account = this.deps.readModel.account(login);
    if (account === undefined) throw new ApiError('not_found', `account ${login} not found`);
    if (active && !account.accountHalted) this.deps.metrics.killSwitchTriggered('account');
    const { accounts: _accounts, ...report } = await sweep(this.deps, [login], () => ({ kind: 'killSwitch', login, scope: 'account', active }));
    return { login, active, ...report };
  }

  /**
   * Start-up: finishes what a crash interrupted. A Triggered user whose webhooks still run or
   * whose accounts are not halted (the crash fell between the journal entry and the shards) is
   * halted again — the shards close whatever is still open; an Armed user's halted accounts are
   * released.
   */
  async reconcile(): Promise<void> {
    for (const [user, record] of this.states) {
      if (record.state !== 'Triggered') continue;
      const paused = await this.deps.book.pauseAllOf(user);
      if (paused.length > 0) this.deps.log.warn({ user, webhooks: paused }, 'kill switch: paused webhooks left running');
    }
    const stale = new Map<string, string[]>();
    for (const a of this.deps.readModel.allAccounts()) {
      if (a.userHalted === this.isTriggered(a.user)) continue;
      const logins = stale.get(a.user);
      if (logins === undefined) stale.set(a.user, [a.login]);
      else logins.push(a.login);
    }
    await Promise.all([...stale].map(([user, logins]) => this.serial(user, async () => {
      const active = this.isTriggered(user);
      const report = await sweep(this.deps, logins, (login) => ({ kind: 'killSwitch', login, scope: 'user', active }));
      const record = this.states.get(user) ?? armed(user, this.deps.clock.nowMs());
      const entry = await this.kills.record(record, { atMs: this.deps.clock.nowMs(), action: active ? 'trigger' : 'reset', actor: 'startup', state: record.state, report: null });
      this.keepReport(user, entry, JSON.stringify(report));
      this.deps.log.warn({ user, accounts: logins, active, closed: report.closed.length, failed: report.failed.length }, 'kill switch: accounts reconciled');
    })));
  }

  /**
   * One step of the table (state.ts): the new state is recorded and the transition's effect carried
   * out. A halt is seen in memory at once (signals stop before the journal entry is durable); any
   * other new state only once it is durable.
   */
  private async apply(user: string, action: KillSwitchAction, actor: KillSwitchActor): Promise<Applied> {
    const nowMs = this.deps.clock.nowMs();
    const prev = this.states.get(user) ?? armed(user, nowMs);
    const { next, effect } = killSwitchTransition(prev.state, action);
    const record: KillSwitchRecord = { ...prev, state: next, sinceMs: prev.state === next ? prev.sinceMs : nowMs };
    const view: KillSwitchView = { user, state: next, since: iso(record.sinceMs) };
    const seenAtOnce = effect === 'halt';
    if (seenAtOnce) {
      this.states.set(user, record);
      if (prev.state !== next) this.deps.metrics.killSwitchTriggered('user');
    }
    const entry = await this.kills.record(record, { atMs: nowMs, action, actor, state: next, report: null });
    if (!seenAtOnce) this.states.set(user, record);
    switch (effect) {
      case 'none':
        return { view, report: NO_REPORT, reportJson: NO_REPORT_JSON, paused: [] };
      case 'halt': {
        // Together: signals are refused from the moment the halt is seen (above), and the shards
        // refuse the accounts' orders once swept, so neither waits for the other's writes.
        const [paused, { report, reportJson }] = await Promise.all([this.deps.book.pauseAllOf(user), this.sweepUser(user, entry, true)]);
        this.deps.log.warn({ user, actor, closed: report.closed.length, cancelled: report.cancelled.length, failed: report.failed.length }, 'kill switch triggered');
        return { view, report, reportJson, paused };
      }
      case 'release': {
        const swept = await this.sweepUser(user, entry, false);
        this.deps.log.warn({ user, actor }, 'kill switch reset');
        return { view, ...swept, paused: [] };
      }
    }
  }

  /** Halts (active) or releases every account of the user; the report, with its text, joins the journal entry. */
  private async sweepUser(user: string, entry: KillSwitchLogEntry, active: boolean): Promise<{ readonly report: KillReport; readonly reportJson: string }> {
    const report = await sweep(this.deps, this.loginsOf(user), (login) => ({ kind: 'killSwitch', login, scope: 'user', active }));
    const reportJson = JSON.stringify(report);
    this.keepReport(user, entry, reportJson);
    return { report, reportJson };
  }

  /** Resolves once no trigger or reset is running and every report is stored (shutdown). */
  async settled(): Promise<void> {
    while (this.queues.size + this.reports.size > 0) await Promise.all([...this.queues.values(), ...this.reports]);
  }

  /**
   * Queues the report's storage before the answer is written. lmdb-js encodes a value as it is
   * put (for 10,000 closes a 1.5 MB copy, 3-6 ms), yet put on the next turn the trigger took its
   * client longer, not shorter (measured: docs/architecture.md, "Two steps moved behind the answer").
   */
  private keepReport(user: string, entry: KillSwitchLogEntry, reportJson: string): void {
    const written: Promise<void> = this.kills.report(user, entry, reportJson).then(
      () => { this.reports.delete(written); },
      (err: unknown) => { this.reports.delete(written); this.deps.log.error({ err, user }, 'kill switch report not stored'); },
    );
    this.reports.add(written);
  }

  private loginsOf(user: string): string[] {
    return [...this.deps.readModel.allAccounts()].filter((a) => a.user === user).map((a) => a.login).sort();
  }

  private userRecord(user: string): UserRecord | undefined { return this.deps.store.table(USERS).get(user); }

  private requireUser(user: string): UserRecord {
    const record = this.userRecord(user);
    if (record === undefined) throw new ApiError('not_found', `user ${user} not found`);
    return record;
  }

  private serial<T>(user: string, work: () => Promise<T>): Promise<T> {
    const result = (this.queues.get(user) ?? Promise.resolve()).then(work);
    const tail = result.then(() => undefined, () => undefined);
    this.queues.set(user, tail);
    void tail.then(() => { if (this.queues.get(user) === tail) this.queues.delete(user); });
    return result;
  }
}
