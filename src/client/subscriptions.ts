// What the stream client has subscribed to (as the server confirmed it) and, per account, the last
// event seq handed to the user: enough to restore everything on a new connection and to resume
// each account's events exactly where the user left off. Pure: no socket, no clock.
import type { AckMessage, EventChannel, StreamChannel } from './types.js';

/** A client op as sent, without its id. */
export interface WireOp {
  readonly op: 'subscribe' | 'unsubscribe' | 'ping' | 'cancel_all_after' | 'cancel_on_disconnect';
  readonly channels?: readonly StreamChannel[];
  readonly symbols?: readonly string[];
  readonly login?: string;
  readonly since_seq?: number;
  readonly timeout_ms?: number;
  readonly enabled?: boolean;
  readonly close_positions?: boolean;
}

const isEventChannel = (c: StreamChannel): c is EventChannel => c === 'orders' || c === 'positions';

export class SubscriptionBook {
  private readonly quotes = new Set<string>();
  private readonly eventChannels = new Map<string, Set<EventChannel>>();
  private readonly accountLogins = new Set<string>();
  /** Per login, the last event seq handed to the user (or the snapshot's seq). */
  private readonly cursors = new Map<string, number>();

  /** The ops that restore every confirmed subscription; events resume after each login's cursor. */
  restoreOps(): WireOp[] {
    const ops: WireOp[] = [];
    if (this.quotes.size > 0) ops.push({ op: 'subscribe', channels: ['quotes'], symbols: [...this.quotes] });
    for (const [login, channels] of this.eventChannels) {
      const cursor = this.cursors.get(login);
      ops.push({ op: 'subscribe', channels: [...channels], login, ...(cursor !== undefined ? { since_seq: cursor } : {}) });
    }
    for (const login of this.accountLogins) ops.push({ op: 'subscribe', channels: ['account'], login });
    return ops;
  }

  /** The server acknowledged `sent`. */
  confirm(ack: AckMessage, sent: WireOp): void {
    const login = ack.login;
    const events = ack.channels.filter(isEventChannel);
    if (ack.channel === 'subscribed') {
      for (const s of ack.symbols) this.quotes.add(s);
      if (login === undefined) return;
      if (events.length > 0) {
        let set = this.eventChannels.get(login);
        if (!set) { set = new Set(); this.eventChannels.set(login, set); }
        for (const c of events) set.add(c);
        // Replayed events follow the ack: they come after since_seq.
        if (sent.since_seq !== undefined && !this.cursors.has(login)) this.cursors.set(login, sent.since_seq);
      }
      if (ack.channels.includes('account')) this.accountLogins.add(login);
      return;
    }
    for (const s of ack.symbols) this.quotes.delete(s);
    if (login === undefined) return;
    const set = this.eventChannels.get(login);
    for (const c of events) set?.delete(c);
    if (set?.size === 0) { this.eventChannels.delete(login); this.cursors.delete(login); }
    if (ack.channels.includes('account')) this.accountLogins.delete(login);
  }

  /**
   * A snapshot starts a login's cursor. One already running stays: on a connection that is still
   * replaying that login's events, the snapshot (of a newly added channel) is ahead of them.
   */
  snapshot(login: string, seq: number): void {
    if (!this.cursors.has(login)) this.cursors.set(login, seq);
  }

  /** True the first time an event seq is seen for the login; it becomes the login's cursor. */
  fresh(login: string, seq: number): boolean {
    const last = this.cursors.get(login);
    if (last !== undefined && seq <= last) return false;
    this.cursors.set(login, seq);
    return true;
  }

  lastSeq(login: string): number | undefined { return this.cursors.get(login); }

  /** The events after the cursor are gone: the next subscribe starts from a snapshot. */
  forgetCursor(login: string): void { this.cursors.delete(login); }
}
