// GET /console/api/quotes: the latest quote of every symbol the caller's accounts can trade (every
// configured symbol: accounts are not limited to a list), with its trading session: open or
// closed now, and when that changes next. The caller's open positions per symbol are counted, so
// the page can put the symbols in use first.
import type { SymbolSpec, UnixMs } from '../engine/types.js';
import { readQuery } from '../gateway/rest/query.js';
import { compileSession, isSessionOpen, minuteOfWeek, type CompiledSession } from '../engine/market-session.js';
import { fromTicks } from '../market/ticks.js';
import { sees } from './actor.js';
import type { ConsoleRouter } from './router.js';

const MINUTE_MS = 60_000;
const WEEK_MINUTES = 7 * 1440;

export interface SymbolSessionState {
  readonly open: boolean;
  /** The weekly window as configured, or "24x7". */
  readonly hours: string;
  /** When the session next opens (closed) or closes (open); null for 24x7. */
  readonly next_change: string | null;
}

export function sessionState(spec: SymbolSpec['session'], compiled: CompiledSession, nowMs: UnixMs): SymbolSessionState {
  const open = isSessionOpen(compiled, nowMs);
  if (compiled.always || spec === '24x7') return { open, hours: '24x7', next_change: null };
  const target = open ? compiled.closeMinute : compiled.openMinute;
  const delta = (target - minuteOfWeek(nowMs, compiled.offsetMinutes) + WEEK_MINUTES) % WEEK_MINUTES;
  const nextMs = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS + (delta === 0 ? WEEK_MINUTES : delta) * MINUTE_MS;
  return { open, hours: `${spec.open} – ${spec.close} (UTC${spec.tz})`, next_change: new Date(nextMs).toISOString() };
}

export function registerQuoteRoutes(router: ConsoleRouter): void {
  const { deps } = router;
  const compiled = new Map([...deps.symbols.values()].map((s) => [s.name, compileSession(s.session)]));

  router.route({ method: 'get', path: '/console/api/quotes', access: 'member', body: 'none', action: 'quote.list' }, (call) => {
    readQuery(call.ex.query, []);
    const inUse = new Map<string, number>();
    for (const a of deps.readModel.allAccounts()) {
      if (!sees(call.actor, a)) continue;
      for (const p of deps.readModel.openPositions(a.login)) inUse.set(p.symbol, (inUse.get(p.symbol) ?? 0) + 1);
    }
    const data = [...deps.symbols.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((s) => {
      const q = deps.market.last(s.name);
      return {
        symbol: s.name,
        digits: s.digits,
        bid: q === null ? null : fromTicks(q.bid, s.digits),
        ask: q === null ? null : fromTicks(q.ask, s.digits),
        spread_points: q === null ? null : q.ask - q.bid,
        ts: q?.ts ?? null,
        session: sessionState(s.session, compiled.get(s.name)!, call.nowMs),
        open_positions: inUse.get(s.name) ?? 0,
      };
    });
    call.reply(200, { data, ts: call.nowMs }, [['cache-control', 'no-store']]);
  });
}
