// Bodies of the amend routes (PATCH /v1/orders/{id}, PATCH /v1/positions/{ticket}): each field
// absent keeps its value; `sl` or `tp` null removes it. Values are validated as POST /orders
// validates them (prices to the symbol's digits, volume in 0.01-lot steps). A field the resource
// does not have (volume of a position) is bad_request naming it; an unknown field too.
import type { Centilots, LevelEdit, SymbolSpec, Ticks } from '../engine/types.js';
import { ApiError } from './errors.js';
import { priceTicks, volumeCentilots } from './order-request.js';

const ORDER_FIELDS = ['price', 'volume', 'sl', 'tp'] as const;
const POSITION_FIELDS = ['sl', 'tp'] as const;

function present(body: Record<string, unknown>, field: string): boolean {
  return body[field] !== undefined;
}

function numberField(body: Record<string, unknown>, field: string): number {
  const v = body[field];
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ApiError('bad_request', `${field} must be a number`, { field });
  return v;
}

function levelEdit(body: Record<string, unknown>, field: 'sl' | 'tp', symbol: SymbolSpec): LevelEdit {
  if (!present(body, field)) return 'keep';
  if (body[field] === null) return 'remove';
  return priceTicks(numberField(body, field), field, symbol);
}

function onlyFields(body: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new ApiError('bad_request', `${what} cannot amend ${JSON.stringify(key)}; fields: ${allowed.join(', ')}`, { field: key });
  }
  if (!allowed.some((f) => present(body, f))) throw new ApiError('bad_request', `give at least one of ${allowed.join(', ')}`, { field: allowed[0] });
}

export interface OrderAmend { readonly price: Ticks | null; readonly volume: Centilots | null; readonly sl: LevelEdit; readonly tp: LevelEdit }

export function parseOrderAmend(body: Record<string, unknown>, symbol: SymbolSpec): OrderAmend {
  onlyFields(body, ORDER_FIELDS, 'an order amend');
  for (const field of ['price', 'volume'] as const) {
    if (body[field] === null) throw new ApiError('bad_request', `${field} cannot be removed; leave it out to keep it`, { field });
  }
  return {
    price: present(body, 'price') ? priceTicks(numberField(body, 'price'), 'price', symbol) : null,
    volume: present(body, 'volume') ? volumeCentilots(numberField(body, 'volume')) : null,
    sl: levelEdit(body, 'sl', symbol),
    tp: levelEdit(body, 'tp', symbol),
  };
}

export function parsePositionAmend(body: Record<string, unknown>, symbol: SymbolSpec): { readonly sl: LevelEdit; readonly tp: LevelEdit } {
  onlyFields(body, POSITION_FIELDS, 'a position amend');
  return { sl: levelEdit(body, 'sl', symbol), tp: levelEdit(body, 'tp', symbol) };
}
