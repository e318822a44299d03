// Parsing of an order request body into an engine command, shared by POST /orders and the
// console's operator route. Wrong types and missing fields are bad_request (400); values that are
// well-formed but not tradable (volume step, price precision, unknown symbol) are invalid_order
// (422), each naming its field. Unknown fields are refused: a typo must not silently become a
// different order.
import { MAX_CLIENT_ID_CHARS } from '../engine/checks.js';
import type { Centilots, PlaceOrder, Side, OrderType, Source, SymbolSpec, Ticks } from '../engine/types.js';
import { lotsToCentilots, toTicks } from '../market/ticks.js';
import { ApiError } from './errors.js';

const SIDES: readonly Side[] = ['buy', 'sell'];
const TYPES: readonly OrderType[] = ['market', 'limit', 'stop'];
const BASE_FIELDS = ['login', 'symbol', 'side', 'type', 'volume', 'price', 'sl', 'tp', 'client_id'];
const MAX_LOGIN = 20;

export interface OrderOrigin { readonly source: Source; readonly keyId: string | null }

export function requireString(body: Record<string, unknown>, field: string, maxLength: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw new ApiError('bad_request', `${field} is required`, { field });
  if (typeof v !== 'string' || v.length === 0) throw new ApiError('bad_request', `${field} must be a non-empty string`, { field });
  if (v.length > maxLength) throw new ApiError('bad_request', `${field} is longer than ${maxLength} characters`, { field });
  return v;
}

/**
 * A client id is any text of 1 to 64 UTF-16 code units that UTF-8 can carry: a lone surrogate
 * (`"\ud800"` in JSON) cannot be stored as sent, and two such ids would become one.
 */
function clientIdOf(body: Record<string, unknown>): string {
  const v = requireString(body, 'client_id', MAX_CLIENT_ID_CHARS);
  if (!v.isWellFormed()) throw new ApiError('bad_request', 'client_id must be well-formed Unicode text (it holds a lone surrogate)', { field: 'client_id' });
  return v;
}

export function oneOf<T extends string>(body: Record<string, unknown>, field: string, values: readonly T[]): T {
  const v = requireString(body, field, 32);
  if (!(values as readonly string[]).includes(v)) throw new ApiError('bad_request', `${field} must be one of ${values.join(', ')}`, { field });
  return v as T;
}

function optionalNumber(body: Record<string, unknown>, field: string): number | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ApiError('bad_request', `${field} must be a number`, { field });
  return v;
}

export function priceTicks(value: number, field: string, symbol: SymbolSpec): Ticks {
  const ticks = value > 0 ? toTicks(value, symbol.digits) : null;
  if (ticks === null) {
    throw new ApiError('invalid_order', `${field} must be a positive price with at most ${symbol.digits} decimals for ${symbol.name}`, { field });
  }
  return ticks;
}

export function volumeCentilots(value: number, field = 'volume'): Centilots {
  const cl = value > 0 ? lotsToCentilots(value) : null;
  if (cl === null) throw new ApiError('invalid_order', `${field} must be a positive multiple of 0.01 lot`, { field });
  return cl;
}

export function knownSymbol(name: string, symbols: ReadonlyMap<string, SymbolSpec>): SymbolSpec {
  const spec = symbols.get(name);
  if (!spec) throw new ApiError('invalid_order', `unknown symbol ${JSON.stringify(name)}`, { field: 'symbol' });
  return spec;
}

export function parseOrderRequest(
  body: Record<string, unknown>,
  symbols: ReadonlyMap<string, SymbolSpec>,
  origin: OrderOrigin,
  extraFields: readonly string[] = [],
): PlaceOrder {
  for (const key of Object.keys(body)) {
    if (!BASE_FIELDS.includes(key) && !extraFields.includes(key)) throw new ApiError('bad_request', `unknown field ${JSON.stringify(key)}`, { field: key });
  }
  const login = requireString(body, 'login', MAX_LOGIN);
  const symbolName = requireString(body, 'symbol', 32);
  const side = oneOf(body, 'side', SIDES);
  const type = oneOf(body, 'type', TYPES);
  const volume = optionalNumber(body, 'volume');
  if (volume === null) throw new ApiError('bad_request', 'volume is required', { field: 'volume' });
  const price = optionalNumber(body, 'price');
  const sl = optionalNumber(body, 'sl');
  const tp = optionalNumber(body, 'tp');
  const clientId = body['client_id'] === undefined || body['client_id'] === null ? null : clientIdOf(body);
  if (type === 'market' && price !== null) throw new ApiError('bad_request', 'price is only for limit and stop orders', { field: 'price' });
  if (type !== 'market' && price === null) throw new ApiError('bad_request', `price is required for ${type} orders`, { field: 'price' });

  const symbol = knownSymbol(symbolName, symbols);
  return {
    kind: 'place',
    login,
    symbol: symbol.name,
    side,
    type,
    volume: volumeCentilots(volume),
    sizing: null,
    price: price === null ? null : priceTicks(price, 'price', symbol),
    sl: sl === null ? null : priceTicks(sl, 'sl', symbol),
    tp: tp === null ? null : priceTicks(tp, 'tp', symbol),
    clientId,
    source: origin.source,
    keyId: origin.keyId,
    webhookId: null,
  };
}
