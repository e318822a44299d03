// All FIX sessions of one thread: the account-level Logon decision (one session per account), the
// registry of logged-on accounts with their event subscriptions at the shards, unsolicited events
// and ticks routed to their sessions, key re-checks while logged on, and flushing: every session
// that encoded something in a turn writes it in one socket write at the end of that turn.
import type { OrderEvent, PositionEvent, Quote, UnixMs } from '../../engine/types.js';
import { keyStatus } from '../../store/records.js';
import type { FixSession, SessionHost } from '../session/session.js';
import type { LogonRequest, LogonVerdict, SessionCounters, SessionLog } from '../session/types.js';
import { AccountSession } from './account-session.js';
import { ExecIds } from './execution.js';
import { checkAccountLogon } from './logon-check.js';
import { MarketDataFanout } from './market-data.js';
import type { AppDeps } from './ports.js';
import { ProfitBook } from './positions.js';

/** Where the shard bridge delivers events that answered none of this thread's requests. */
export interface EventSink {
  orderEvent(e: OrderEvent): void;
  positionEvent(e: PositionEvent): void;
}

export class FixGateway implements SessionHost, EventSink {
  private readonly accounts = new Map<string, AccountSession>();
  private readonly dirty = new Set<FixSession>();
  private readonly fanout = new MarketDataFanout();
  private readonly execIds: ExecIds;
  private readonly profits: ProfitBook;

  constructor(private readonly deps: AppDeps, private readonly clock: () => number, readonly log: SessionLog, readonly counters?: SessionCounters) {
    this.execIds = new ExecIds(clock());
    this.profits = new ProfitBook(deps);
  }

  nowMs(): UnixMs {
    return this.clock();
  }

  logon(session: FixSession, req: LogonRequest): LogonVerdict {
    const verdict = checkAccountLogon(req, this.deps, (login) => this.accounts.has(login));
    if (!verdict.ok) {
      this.log.warn({ remote: req.remoteAddress, sender: req.header.senderCompId, key: req.logon.username, reason: verdict.text }, 'fix: logon refused');
      return verdict;
    }
    const shared = { deps: this.deps, execIds: this.execIds, fanout: this.fanout, profits: this.profits, nowMs: this.clock };
    const account = new AccountSession(session, verdict, shared, (a) => this.ended(a));
    this.accounts.set(verdict.login, account);
    this.deps.shards.watch(verdict.login, true);
    return { ok: true, app: account };
  }

  outputPending(session: FixSession): void {
    this.dirty.add(session);
  }

  /** Writes every session's output of this turn. */
  flush(): void {
    if (this.dirty.size === 0) return;
    for (const session of this.dirty) session.flush();
    this.dirty.clear();
  }

  orderEvent(e: OrderEvent): void {
    this.accounts.get(e.order.login)?.onOrderEvent(e);
  }

  positionEvent(e: PositionEvent): void {
    this.accounts.get(e.position.login)?.onPositionEvent(e);
  }

  onQuote(quote: Quote): void {
    this.fanout.publish(quote);
  }

  /** Logs out sessions whose key was paused, revoked or expired since they logged on. */
  recheckKeys(): void {
    const now = this.clock();
    for (const account of [...this.accounts.values()]) {
      const key = this.deps.keys.key(account.keyId);
      const why = key === null || key.record.revokedAt !== null ? 'was revoked' : keyStatus(key.record, now) === 'Active' ? null : `is ${keyStatus(key.record, now).toLowerCase()}`;
      if (why !== null) account.session.logout(`API key ${account.keyId} ${why}`);
    }
  }

  /** Starts the Logout handshake on every session (service shutdown). */
  logoutAll(text: string): void {
    for (const account of [...this.accounts.values()]) account.session.logout(text);
  }

  private ended(account: AccountSession): void {
    if (this.accounts.get(account.login) !== account) return;
    this.accounts.delete(account.login);
    this.deps.shards.watch(account.login, false);
    this.log.info({ login: account.login }, 'fix: session ended');
  }
}
