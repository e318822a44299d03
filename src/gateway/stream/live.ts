// Live position P&L on the stream: connections subscribed to an account's `positions` get
// `{"channel":"position","live":true,...}` messages with the new floating `profit` (and the
// account's `equity`) as ticks move it. The shard computes them (live-pnl.ts) at most every
// 100 ms per position; here they fan out to the account's subscribers. They are states, not
// events: no `seq`, never replayed, and for a slow connection (its buffer past `conflateAtBytes`)
// conflated to the latest value per position until it drains, while its order and position
// events still go out in full.
import type { LiveAccount, LivePosition } from '../../shard/protocol.js';
import type { SymbolSpec } from '../../engine/types.js';
import { money } from '../wire.js';

export interface LiveOutlet {
  readonly isOpen: boolean;
  push(text: string): void;
  bufferedBytes(): number;
}

/** What the feed asks of the shards: start or stop computing an account's live P&L. */
export type LiveInterest = (login: string, on: boolean) => void;

interface Held { readonly login: string; readonly texts: Map<number, string> }

export function livePositionText(login: string, p: LivePosition, equity: number, ts: number, symbols: ReadonlyMap<string, SymbolSpec>): string {
  const profit = p.profit === null ? 'null' : String(money(p.profit));
  const symbol = symbols.has(p.symbol) ? p.symbol : '';
  return `{"channel":"position","live":true,"login":${JSON.stringify(login)},"ticket":${p.ticket},"symbol":${JSON.stringify(symbol)},"profit":${profit},"equity":${money(equity)},"ts":${ts}}`;
}

export class LiveFeed {
  private readonly byLogin = new Map<string, Set<LiveOutlet>>();
  /** Slow connections: the latest message per ticket, sent once the buffer drains. */
  private readonly held = new Map<LiveOutlet, Held>();

  constructor(
    private readonly interest: LiveInterest,
    private readonly symbols: ReadonlyMap<string, SymbolSpec>,
    private readonly conflateAtBytes: number,
  ) {}

  add(outlet: LiveOutlet, login: string): void {
    let outlets = this.byLogin.get(login);
    if (outlets === undefined) {
      outlets = new Set();
      this.byLogin.set(login, outlets);
      this.interest(login, true);
    }
    outlets.add(outlet);
  }

  remove(outlet: LiveOutlet, login: string): void {
    const outlets = this.byLogin.get(login);
    if (outlets === undefined || !outlets.delete(outlet)) return;
    if (this.held.get(outlet)?.login === login) this.held.delete(outlet);
    if (outlets.size === 0) {
      this.byLogin.delete(login);
      this.interest(login, false);
    }
  }

  drop(outlet: LiveOutlet): void {
    for (const login of [...this.byLogin.keys()]) this.remove(outlet, login);
  }

  onLive(accounts: readonly LiveAccount[], ts: number): void {
    for (const a of accounts) {
      const outlets = this.byLogin.get(a.login);
      if (outlets === undefined || a.positions.length === 0) continue;
      const texts = a.positions.map((p) => [p.ticket, livePositionText(a.login, p, a.equity, ts, this.symbols)] as const);
      for (const outlet of outlets) this.deliver(outlet, a.login, texts);
    }
  }

  /** The connection's buffer drained: what was held goes out. */
  onDrain(outlet: LiveOutlet): void {
    const held = this.held.get(outlet);
    if (held === undefined || !outlet.isOpen || outlet.bufferedBytes() > this.conflateAtBytes) return;
    this.held.delete(outlet);
    for (const text of held.texts.values()) outlet.push(text);
  }

  private deliver(outlet: LiveOutlet, login: string, texts: readonly (readonly [number, string])[]): void {
    this.onDrain(outlet);
    let held = this.held.get(outlet);
    if (held === undefined && outlet.bufferedBytes() <= this.conflateAtBytes) {
      for (const [, text] of texts) outlet.push(text);
      return;
    }
    if (held === undefined) {
      held = { login, texts: new Map() };
      this.held.set(outlet, held);
    }
    for (const [ticket, text] of texts) held.texts.set(ticket, text);
  }
}
