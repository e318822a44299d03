// GET /positions (read model, floating profit at the latest quotes) and DELETE /positions/{ticket}
// (full or partial close in the account's shard). Tickets not of the key's account are not_found.
import type { PositionRecord, SymbolSpec } from '../../engine/types.js';
import { parseTicks } from '../../market/ticks.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { callShard } from '../shard-call.js';
import { closeJson, positionJsonText } from '../wire.js';
import { cut, knownSymbolFilter, listLimit, readQuery } from './query.js';
import { decimalId, notFound, type RestRoute } from './route.js';

type Positions = Pick<GatewayContext, 'readModel' | 'symbols' | 'pool' | 'store'>;

const VOLUME_DIGITS = 2;

function cursorTicket(text: string | undefined): number {
  if (text === undefined) return 0;
  const ticket = decimalId(text);
  if (ticket === null) throw new ApiError('bad_request', 'cursor must be the next_cursor of a previous page', 'cursor');
  return ticket;
}

/** `volume` of a partial close, parsed from its text exactly (no float rounding): lots, 0.01 step. */
function closeVolume(text: string | undefined): number | null {
  if (text === undefined) return null;
  const centilots = parseTicks(text, VOLUME_DIGITS);
  if (centilots === null || centilots <= 0) {
    throw new ApiError('invalid_order', 'volume must be a positive number of lots in steps of 0.01', 'volume');
  }
  return centilots;
}

export function positionRoutes(ctx: Positions): RestRoute[] {
  const specOf = (name: string): SymbolSpec => {
    const spec = ctx.symbols.get(name);
    if (!spec) throw new Error(`position on unconfigured symbol ${name}`);
    return spec;
  };
  return [
    {
      method: 'GET', pattern: '/v1/positions', scope: 'read',
      handle: (call) => {
        const q = readQuery(call.query, ['login', 'symbol', 'limit', 'cursor']);
        const login = q.get('login') ?? call.login;
        const account = login === call.login ? ctx.readModel.account(login) : undefined;
        if (!account) throw notFound('account', login);
        const symbol = knownSymbolFilter(q.get('symbol'), ctx.symbols);
        const limit = listLimit(q);
        const after = cursorTicket(q.get('cursor'));
        const matching: PositionRecord[] = [];
        for (const p of ctx.readModel.openPositions(login)) {
          if (p.ticket > after && (symbol === null || p.symbol === symbol)) matching.push(p);
        }
        matching.sort((a, b) => a.ticket - b.ticket);
        const { items, nextCursor } = cut(matching, limit, (p) => String(p.ticket));
        // The hottest read: written as text from each position's cached JSON (see positionJsonText).
        const data = items.map((p) => positionJsonText(p, specOf(p.symbol), ctx.readModel.profit(p, account.currency)));
        return { status: 200, json: `{"data":[${data.join(',')}],"next_cursor":${JSON.stringify(nextCursor)}}` };
      },
    },
    {
      method: 'DELETE', pattern: '/v1/positions/:ticket', scope: 'trade',
      handle: async (call) => {
        const q = readQuery(call.query, ['volume']);
        const ticket = decimalId(call.params[0]!);
        // A ticket the client can know reached it through this thread, after the read model had it.
        let position: PositionRecord | undefined;
        if (ticket !== null) for (const p of ctx.readModel.openPositions(call.login)) if (p.ticket === ticket) position = p;
        if (ticket === null || !position) throw notFound('position', call.params[0]!);
        const volume = closeVolume(q.get('volume'));
        const result = await callShard(ctx, call.login, {
          kind: 'close', login: call.login, ticket, volume, source: 'api', keyId: call.key.record.id,
        });
        if (result.kind !== 'close') throw new Error(`close answered with ${result.kind}`);
        return { status: 200, body: closeJson(result, specOf(position.symbol)) };
      },
    },
  ];
}
