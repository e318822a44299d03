// The `account` channel (DECISIONS: balance, equity, margin, free margin and margin level on change,
// at most every 100 ms per account). Equity moves with every tick of a symbol the account holds
// (and of the pairs that convert its profit), so ticks and shard batches only mark an account as
// worth a look; the look itself (metrics from the read model, compared with what was last sent)
// runs at most once per `throttleMs`: at once when the account was quiet, else when its window
// ends. A subscriber gets the current state when it subscribes.
//
// `margin_call` is true while the margin level is below the account group's margin-call level
// (config margin): the warning before stop-out, which the shard applies on its own.
//
// `seq` in the message is the account's last event seq the state includes: a stamp that lets a
// client line the state up with its order/position events. Account messages are states, not
// events: they are conflated, never replayed, and carry no seq of their own.
import type { MarginLevelsConfig } from '../../config/types.js';
import type { AccountMetrics, AccountRecord, UnixMs } from '../../engine/types.js';
import type { Clock } from '../../base/clock.js';
import type { ReadModel } from '../../shard/read-model.js';
import { accountText } from './messages.js';

export interface AccountOutlet { push(text: string): void }

interface Watched {
  readonly outlets: Set<AccountOutlet>;
  /** What the last message said, without its ts. */
  lastState: string;
  lastLookMs: number;
  timer: NodeJS.Timeout | null;
}

export class AccountStream {
  private readonly watched = new Map<string, Watched>();

  constructor(
    private readonly readModel: ReadModel,
    private readonly clock: Clock,
    private readonly throttleMs: number,
    private readonly levelsOf: (group: string) => MarginLevelsConfig,
  ) {}

  /** False when the account does not exist. */
  subscribe(outlet: AccountOutlet, login: string): boolean {
    const account = this.readModel.account(login);
    if (!account) return false;
    let w = this.watched.get(login);
    if (!w) {
      w = { outlets: new Set(), lastState: '', lastLookMs: Number.NEGATIVE_INFINITY, timer: null };
      this.watched.set(login, w);
    }
    if (w.outlets.has(outlet)) return true;
    const nowMs = this.clock.nowMs();
    const { state, text } = this.render(account, nowMs);
    // The first subscriber's state is the baseline; later ones may get one repeat of theirs. The
    // next update is a window away for every subscriber, this one included.
    if (w.outlets.size === 0) w.lastState = state;
    w.lastLookMs = nowMs;
    w.outlets.add(outlet);
    outlet.push(text);
    return true;
  }

  unsubscribe(outlet: AccountOutlet, login: string): void {
    const w = this.watched.get(login);
    if (!w) return;
    w.outlets.delete(outlet);
    if (w.outlets.size === 0) {
      if (w.timer) clearTimeout(w.timer);
      this.watched.delete(login);
    }
  }

  drop(outlet: AccountOutlet): void {
    for (const login of [...this.watched.keys()]) this.unsubscribe(outlet, login);
  }

  /** Any tick may move the equity of an account holding positions. */
  onQuote(): void {
    for (const [login, w] of this.watched) if (w.timer === null) this.touch(login, w);
  }

  onAccounts(accounts: readonly AccountRecord[]): void {
    for (const a of accounts) {
      const w = this.watched.get(a.login);
      if (w && w.timer === null) this.touch(a.login, w);
    }
  }

  close(): void {
    for (const w of this.watched.values()) if (w.timer) clearTimeout(w.timer);
  }

  private touch(login: string, w: Watched): void {
    const waitMs = w.lastLookMs + this.throttleMs - this.clock.nowMs();
    if (waitMs <= 0) this.look(login, w);
    // Timers run on the loop's cached clock and may fire a little early by this one: look again.
    else w.timer = setTimeout(() => { w.timer = null; this.touch(login, w); }, waitMs);
  }

  private look(login: string, w: Watched): void {
    const account = this.readModel.account(login);
    if (!account || !this.watched.has(login)) return;
    // One reading of the clock: the message's ts is the look's time, so ts values are a window apart.
    w.lastLookMs = this.clock.nowMs();
    const { state, text } = this.render(account, w.lastLookMs);
    if (state === w.lastState) return;
    w.lastState = state;
    for (const outlet of w.outlets) outlet.push(text);
  }

  private render(account: AccountRecord, nowMs: UnixMs): { state: string; text: string } {
    const m = this.readModel.metrics(account);
    const marginCall = this.marginCall(account, m);
    const state = `${m.balance}|${m.equity}|${m.margin}|${m.freeMargin}|${m.marginLevel}|${account.seq}|${marginCall}`;
    return { state, text: accountText(account, m, marginCall, nowMs) };
  }

  private marginCall(account: AccountRecord, m: AccountMetrics): boolean {
    const level = this.levelsOf(account.group).margin_call_percent;
    return level > 0 && m.margin > 0 && m.marginLevel < level;
  }
}
