// Query strings of the REST routes: only the documented parameters, each at most once, and the
// list paging of DECISIONS ("Lists take optional `limit` (default 500, max 1000) and `cursor`;
// responses then carry `next_cursor` (null at the end). Order: by ticket ascending").
import type { SymbolSpec } from '../../engine/types.js';
import { ApiError } from '../errors.js';
import { echo } from './route.js';

export const LIST_LIMIT_DEFAULT = 500;
export const LIST_LIMIT_MAX = 1000;
const LIMIT_TEXT = /^\d{1,4}$/;

export type Query = ReadonlyMap<string, string>;

const NO_PARAMS: Query = new Map();

/** Decoded parameters; an unknown or repeated name is bad_request naming it. */
export function readQuery(raw: string, allowed: readonly string[]): Query {
  if (raw === '') return NO_PARAMS;
  const out = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(raw)) {
    const field = name.slice(0, 64);
    if (!allowed.includes(name)) {
      const known = allowed.length === 0 ? 'this route takes none' : `allowed: ${allowed.join(', ')}`;
      throw new ApiError('bad_request', `unknown query parameter ${echo(name)}; ${known}`, { field });
    }
    if (out.has(name)) throw new ApiError('bad_request', `query parameter ${name} given more than once`, { field });
    out.set(name, value);
  }
  return out;
}

export function listLimit(q: Query): number {
  const text = q.get('limit');
  if (text === undefined) return LIST_LIMIT_DEFAULT;
  const n = LIMIT_TEXT.test(text) ? Number(text) : 0;
  if (n < 1 || n > LIST_LIMIT_MAX) throw new ApiError('bad_request', `limit must be an integer from 1 to ${LIST_LIMIT_MAX}`, { field: 'limit' });
  return n;
}

/** The first `limit` of `sorted` (already past the cursor); the next cursor names the last one sent. */
export function cut<T>(sorted: readonly T[], limit: number, cursorOf: (item: T) => string): { items: readonly T[]; nextCursor: string | null } {
  if (sorted.length <= limit) return { items: sorted, nextCursor: null };
  const items = sorted.slice(0, limit);
  return { items, nextCursor: cursorOf(items[items.length - 1]!) };
}

/** A `symbol` filter: absent, or a configured symbol (anything else is bad_request). */
export function knownSymbolFilter(text: string | undefined, symbols: ReadonlyMap<string, SymbolSpec>): string | null {
  if (text === undefined) return null;
  if (!symbols.has(text)) throw new ApiError('bad_request', `unknown symbol ${JSON.stringify(text.slice(0, 32))}`, { field: 'symbol' });
  return text;
}
