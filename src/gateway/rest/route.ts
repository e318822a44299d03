// The REST routes as data: what each needs (scope, limit class, body) and the handler that turns
// an authenticated call into a reply. The pipeline (pipeline.ts) does everything else.
import type { KeyScope } from '../../config/types.js';
import type { LiveKey } from '../auth/key-ring.js';
import { ApiError } from '../errors.js';

export type RestMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** An authenticated, rate-limited call with the scope its route needs. */
export interface RestCall {
  readonly key: LiveKey;
  /** The key's account; a key sees this account only (spec "Authentication" 4). */
  readonly login: string;
  /** Path parameters in pattern order, as sent (not decoded). */
  readonly params: readonly string[];
  /** Raw query string without '?'. */
  readonly query: string;
  readonly body: Buffer;
  readonly contentType: string;
}

/** A JSON answer: a value to serialise, or text that already is JSON (told apart by `json`, never both). */
export type RestReply =
  | { readonly status: number; readonly body: unknown; readonly json?: never }
  | { readonly status: number; readonly json: string; readonly body?: never };

export interface RestRoute {
  readonly method: RestMethod;
  /** uWS pattern under /v1, e.g. `/v1/orders/:id`. */
  readonly pattern: string;
  readonly scope: KeyScope;
  readonly handle: (call: RestCall) => RestReply | Promise<RestReply>;
}

/** Spec "Limits": GETs are reads (per key); POST, PATCH and DELETE are trade calls (per account). */
export const isTrade = (method: RestMethod): boolean => method !== 'GET';

/** `DELETE /v1/orders/{id}`: how statistics and docs name a route. */
export const endpointOf = (route: Pick<RestRoute, 'method' | 'pattern'>): string =>
  `${route.method} ${route.pattern.replace(/:(\w+)/g, '{$1}')}`;

const MAX_ECHO = 64;

/** Client text inside an error message: quoted, and cut so a huge path cannot make a huge answer. */
export function echo(text: string): string {
  return JSON.stringify(text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text);
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError('not_found', `${what} ${echo(id)} not found`);
}

/** Engine order ids and tickets: positive safe integers in plain decimal. */
const DECIMAL_ID = /^[1-9]\d{0,15}$/;

export function decimalId(text: string): number | null {
  const n = DECIMAL_ID.test(text) ? Number(text) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}
