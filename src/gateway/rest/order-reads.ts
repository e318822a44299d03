// GET /v1/orders (one account's orders, pending and settled, filtered and paged), GET
// /v1/orders?client_id= and GET /v1/orders/{id}, answered through the OrderLookup port: another
// account's order is not_found, as if it did not exist.
import { MAX_CLIENT_ID_CHARS } from '../../engine/checks.js';
import type { OrderRecord, OrderStatus, SymbolSpec, UnixMs } from '../../engine/types.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { OrderLookup } from '../orders/order-lookup.js';
import { orderJson } from '../wire.js';
import { knownSymbolFilter, listLimit, readQuery, type Query } from './query.js';
import { decimalId, echo, notFound, type RestRoute } from './route.js';

const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'filled', 'cancelled', 'rejected'];
const UNIX_MS = /^\d{1,15}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const LIST_PARAMS = ['status', 'symbol', 'since', 'limit', 'cursor'];

type Reads = Pick<GatewayContext, 'symbols'> & { readonly orders: OrderLookup };

function statusFilter(text: string | undefined): OrderStatus | null {
  if (text === undefined) return null;
  if (!(ORDER_STATUSES as readonly string[]).includes(text)) throw new ApiError('bad_request', `status must be one of ${ORDER_STATUSES.join(', ')}`, { field: 'status' });
  return text as OrderStatus;
}

/** Unix milliseconds, or an ISO 8601 time with its zone. */
function sinceFilter(text: string | undefined): UnixMs | null {
  if (text === undefined) return null;
  const ms = UNIX_MS.test(text) ? Number(text) : ISO_UTC.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms)) throw new ApiError('bad_request', 'since must be Unix milliseconds or an ISO 8601 time with a zone, e.g. 2026-01-05T08:00:00Z', { field: 'since' });
  return ms;
}

function orderCursor(text: string | undefined): number {
  if (text === undefined) return 0;
  const id = decimalId(text);
  if (id === null) throw new ApiError('bad_request', 'cursor must be the next_cursor of a previous page', { field: 'cursor' });
  return id;
}

function clientIdOf(q: Query): string {
  const clientId = q.get('client_id')!;
  if (clientId === '' || clientId.length > MAX_CLIENT_ID_CHARS) throw new ApiError('bad_request', `client_id must be 1 to ${MAX_CLIENT_ID_CHARS} characters`, { field: 'client_id' });
  const other = [...q.keys()].find((name) => name !== 'client_id');
  if (other !== undefined) throw new ApiError('bad_request', `client_id names one order: ${other} cannot be combined with it`, { field: other });
  return clientId;
}

export function orderReadRoutes(ctx: Reads): RestRoute[] {
  const json = (o: OrderRecord) => {
    const spec: SymbolSpec | undefined = ctx.symbols.get(o.symbol);
    if (!spec) throw new Error(`order on unconfigured symbol ${o.symbol}`);
    return orderJson(o, spec);
  };
  return [
    {
      method: 'GET', pattern: '/v1/orders', scope: 'read',
      handle: async (call) => {
        const q = readQuery(call.query, [...LIST_PARAMS, 'client_id']);
        if (q.has('client_id')) {
          const clientId = clientIdOf(q);
          const order = await ctx.orders.byClientId(call.login, clientId);
          if (!order) throw new ApiError('not_found', `no order with client_id ${echo(clientId)}`);
          return { status: 200, body: json(order) };
        }
        const page = await ctx.orders.list(call.login, {
          status: statusFilter(q.get('status')),
          symbol: knownSymbolFilter(q.get('symbol'), ctx.symbols),
          sinceMs: sinceFilter(q.get('since')),
          afterId: orderCursor(q.get('cursor')),
          limit: listLimit(q),
        });
        return { status: 200, body: { data: page.items.map(json), next_cursor: page.nextCursor } };
      },
    },
    {
      method: 'GET', pattern: '/v1/orders/:id', scope: 'read',
      handle: async (call) => {
        readQuery(call.query, []);
        const text = call.params[0]!;
        const id = decimalId(text);
        const order = id === null ? null : await ctx.orders.order(call.login, id);
        if (!order) throw notFound('order', text);
        return { status: 200, body: json(order) };
      },
    },
  ];
}
