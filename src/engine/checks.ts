// Shape checks shared by command validation and init loading. Commands arrive decoded from rings
// and must be checked at run time: a wrong type or a NaN is a bad_request, never an exception.
import type { AccountType, Side, Source } from './types.js';
import { SOURCES } from './types.js';

/** Invalid engine init or market spec: a host or configuration bug, so the constructor throws. */
export class EngineInitError extends Error {}

export interface Problem { readonly field: string; readonly message: string }

const MAX_NAME_CHARS = 64;
export const MAX_CLIENT_ID_CHARS = 64;
const MAX_DIGITS = 10;
const ACCOUNT_TYPES: readonly AccountType[] = ['live', 'demo'];
const SIDES: readonly Side[] = ['buy', 'sell'];

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** A safe integer ≥ 1 (volumes, prices, tickets, leverage). */
export function isPositiveInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

export function isInt(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v);
}

export function isName(v: unknown, maxChars = MAX_NAME_CHARS): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= maxChars;
}

export function isSide(v: unknown): v is Side {
  return SIDES.includes(v as Side);
}

export function isSource(v: unknown): v is Source {
  return SOURCES.includes(v as Source);
}

/** A value for a message; JSON.stringify throws on BigInt, so only strings are quoted. */
export function describe(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : typeof v;
}

export function problem(field: string, message: string): Problem {
  return { field, message };
}

/** Null or a positive price in ticks. */
export function optionalPriceProblem(v: unknown, field: string): Problem | null {
  return v === null || isPositiveInt(v) ? null : problem(field, `${field} must be null or a positive integer number of ticks`);
}

export function optionalNameProblem(v: unknown, field: string): Problem | null {
  return v === null || isName(v) ? null : problem(field, `${field} must be null or a string of 1 to ${MAX_NAME_CHARS} characters`);
}

export function symbolSpecProblem(spec: unknown): string | null {
  if (!isRecord(spec)) return 'must be an object';
  if (!isName(spec.name)) return `name must be a string of 1 to ${MAX_NAME_CHARS} characters`;
  if (!isInt(spec.digits) || spec.digits < 0 || spec.digits > MAX_DIGITS) return `digits must be an integer from 0 to ${MAX_DIGITS}`;
  if (!isPositiveInt(spec.contractSize)) return 'contractSize must be a positive integer';
  if (!isPositiveInt(spec.maxVolume)) return 'maxVolume must be a positive integer number of centilots';
  if (spec.baseCurrency !== null && !isName(spec.baseCurrency)) return 'baseCurrency must be null or a currency code';
  if (!isName(spec.quoteCurrency)) return 'quoteCurrency must be a currency code';
  return null;
}

export function quoteProblem(q: unknown): Problem | null {
  if (!isRecord(q)) return problem('quote', 'quote must be an object');
  if (!isName(q.symbol)) return problem('symbol', 'symbol must be a non-empty string');
  if (!isPositiveInt(q.bid)) return problem('bid', 'bid must be a positive integer number of ticks');
  if (!isPositiveInt(q.ask)) return problem('ask', 'ask must be a positive integer number of ticks');
  if (q.bid > q.ask) return problem('bid', 'bid must not exceed ask');
  if (!isInt(q.ts) || q.ts < 0) return problem('ts', 'ts must be Unix milliseconds');
  return null;
}

/** The static fields and balance of an account (upsertAccount and init). */
export function accountFieldsProblem(a: unknown): Problem | null {
  if (!isRecord(a)) return problem('account', 'account must be an object');
  if (!isName(a.login)) return problem('login', `login must be a string of 1 to ${MAX_NAME_CHARS} characters`);
  if (!isName(a.user)) return problem('user', `user must be a string of 1 to ${MAX_NAME_CHARS} characters`);
  if (!ACCOUNT_TYPES.includes(a.type as AccountType)) return problem('type', 'type must be "live" or "demo"');
  if (typeof a.group !== 'string') return problem('group', 'group must be a string');
  if (!isName(a.currency)) return problem('currency', 'currency must be a currency code');
  if (!isPositiveInt(a.leverage)) return problem('leverage', 'leverage must be a positive integer');
  if (typeof a.server !== 'string') return problem('server', 'server must be a string');
  if (!isInt(a.balance)) return problem('balance', 'balance must be an integer number of cents');
  return null;
}
