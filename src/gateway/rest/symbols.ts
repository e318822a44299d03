// GET /v1/symbols: what a bot needs to size and time its orders: digits, contract size, the volume
// range and step (DECISIONS: 0.01 lot to the symbol's max_volume), the trading session and whether
// it is open at this moment. Ordered by name; `cursor` is the last name of the previous page.
import type { SessionSpec, SymbolSpec, UnixMs } from '../../engine/types.js';
import { compileSession, isSessionOpen, type CompiledSession } from '../../engine/market-session.js';
import { centilotsToLots } from '../../market/ticks.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { cut, listLimit, readQuery } from './query.js';
import type { RestRoute } from './route.js';

const VOLUME_STEP_CENTILOTS = 1;
const MAX_NAME_CURSOR = 64;

export interface SymbolJson {
  name: string;
  digits: number;
  contract_size: number;
  base_currency: string | null;
  quote_currency: string;
  min_volume: number;
  max_volume: number;
  volume_step: number;
  session: SessionSpec;
  open: boolean;
}

function nameCursor(text: string | undefined): string | null {
  if (text === undefined) return null;
  if (text === '' || text.length > MAX_NAME_CURSOR) throw new ApiError('bad_request', 'cursor must be the next_cursor of a previous page', { field: 'cursor' });
  return text;
}

export function symbolRoutes(ctx: Pick<GatewayContext, 'symbols' | 'clock'>): RestRoute[] {
  const sorted = [...ctx.symbols.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const sessions = new Map<string, CompiledSession>(sorted.map((s) => [s.name, compileSession(s.session)]));
  const json = (s: SymbolSpec, nowMs: UnixMs): SymbolJson => ({
    name: s.name,
    digits: s.digits,
    contract_size: s.contractSize,
    base_currency: s.baseCurrency,
    quote_currency: s.quoteCurrency,
    min_volume: centilotsToLots(VOLUME_STEP_CENTILOTS),
    max_volume: centilotsToLots(s.maxVolume),
    volume_step: centilotsToLots(VOLUME_STEP_CENTILOTS),
    session: s.session,
    open: isSessionOpen(sessions.get(s.name)!, nowMs),
  });
  return [
    {
      method: 'GET', pattern: '/v1/symbols', scope: 'read',
      handle: (call) => {
        const q = readQuery(call.query, ['limit', 'cursor']);
        const limit = listLimit(q);
        const after = nameCursor(q.get('cursor'));
        const { items, nextCursor } = cut(after === null ? sorted : sorted.filter((s) => s.name > after), limit, (s) => s.name);
        const nowMs = ctx.clock.nowMs();
        return { status: 200, body: { data: items.map((s) => json(s, nowMs)), next_cursor: nextCursor } };
      },
    },
  ];
}
