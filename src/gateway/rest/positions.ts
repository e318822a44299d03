// GET /positions (read model, floating profit at the latest quotes), DELETE /positions/{ticket}
// (full or partial close in the account's shard), PATCH /positions/{ticket} (SL and TP) and
// DELETE /positions (close-all: one command to the account's shard, one answer listing each
// position's close or why it could not close, charged to the trade limit once). Tickets not of the
// key's account are not_found.
import type { Centilots, PositionRecord, SymbolSpec } from '../../engine/types.js';
import { parseLots } from '../../market/ticks.js';
import type { GatewayContext } from '../context.js';
import { parsePositionAmend } from '../amend-request.js';
import { ApiError } from '../errors.js';
import { callShard } from '../shard-call.js';
import { amendedJson, closeJson, closeManyJson, positionJson, positionJsonText } from '../wire.js';
import { jsonBody, ownLogin } from './orders.js';
import { cut, knownSymbolFilter, listLimit, readQuery } from './query.js';
import { decimalId, notFound, type RestRoute } from './route.js';

type Positions = Pick<GatewayContext, 'readModel' | 'symbols' | 'pool' | 'store'>;


function cursorTicket(text: string | undefined): number {
  if (text === undefined) return 0;
  const ticket = decimalId(text);
  if (ticket === null) throw new ApiError('bad_request', 'cursor must be the next_cursor of a previous page', { field: 'cursor' });
  return ticket;
}

/** `volume` of a partial close, parsed from its text exactly (no float rounding): lots, 0.01 step. */
function closeVolume(text: string | undefined): Centilots | null {
  if (text === undefined) return null;
  const centilots = parseLots(text);
  if (centilots === null || centilots <= 0) {
    throw new ApiError('invalid_order', 'volume must be a positive number of lots in steps of 0.01', { field: 'volume' });
  }
  return centilots;
}

export function positionRoutes(ctx: Positions): RestRoute[] {
  /** A ticket the client can know reached it through this thread, after the read model had it. */
  const openPosition = (login: string, text: string): PositionRecord => {
    const ticket = decimalId(text);
    if (ticket !== null) for (const p of ctx.readModel.openPositions(login)) if (p.ticket === ticket) return p;
    throw notFound('position', text);
  };
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
        const position = openPosition(call.login, call.params[0]!);
        const volume = closeVolume(q.get('volume'));
        const result = await callShard(ctx, call.login, {
          kind: 'close', login: call.login, ticket: position.ticket, volume, source: 'api', keyId: call.key.record.id,
        });
        if (result.kind !== 'close') throw new Error(`close answered with ${result.kind}`);
        return { status: 200, body: closeJson(result, specOf(position.symbol)) };
      },
    },
    {
      method: 'PATCH', pattern: '/v1/positions/:ticket', scope: 'trade',
      handle: async (call) => {
        readQuery(call.query, []);
        const position = openPosition(call.login, call.params[0]!);
        const spec = specOf(position.symbol);
        const { sl, tp } = parsePositionAmend(jsonBody(call.contentType, call.body), spec);
        const result = await callShard(ctx, call.login, {
          kind: 'amendPosition', login: call.login, ticket: position.ticket, sl, tp, source: 'api', keyId: call.key.record.id,
        });
        if (result.kind !== 'amendPosition') throw new Error(`amend answered with ${result.kind}`);
        const account = ctx.readModel.account(call.login);
        const profit = account === undefined ? null : ctx.readModel.profit(result.position, account.currency);
        return { status: 200, body: { ...positionJson(result.position, spec, profit), amended: amendedJson(result.amended, spec) } };
      },
    },
    {
      method: 'DELETE', pattern: '/v1/positions', scope: 'trade',
      handle: async (call) => {
        const q = readQuery(call.query, ['login', 'symbol']);
        const login = ownLogin(q, call.login);
        const symbol = knownSymbolFilter(q.get('symbol'), ctx.symbols);
        const symbolOf = new Map([...ctx.readModel.openPositions(login)].map((p) => [p.ticket, p.symbol]));
        const result = await callShard(ctx, login, { kind: 'closeAll', login, symbol, source: 'api', keyId: call.key.record.id });
        if (result.kind !== 'closeMany') throw new Error(`close-all answered with ${result.kind}`);
        return { status: 200, body: { data: closeManyJson(result, ctx.symbols, (ticket) => symbolOf.get(ticket) ?? '') } };
      },
    },
  ];
}
