// Hand-written readers of parsed JSON for the configuration and the fixture. A reader takes a value
// and its key path and returns it typed, or throws InvalidValue naming the path and what was
// expected; the validators turn that into a ConfigError of their document.
import type { SessionSpec } from '../engine/types.js';
import { compileSession, SessionSpecError } from '../engine/market-session.js';
import { parseCidr } from '../base/ip.js';
import { InvalidValue } from './errors.js';

export type Reader<T> = (value: unknown, path: string) => T;
export type Fields = Readonly<Record<string, unknown>>;

export const at = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);
export const item = (path: string, index: number): string => `${path}[${index}]`;

const MAX_SHOWN_CHARS = 60;

/**
 * The offending value as it would appear in JSON, shortened. Request bodies reach this too: a
 * string is cut before it is quoted, and a value nested too deep for JSON.stringify (it recurses)
 * is named by its kind.
 */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(typeof value === 'string' ? value.slice(0, MAX_SHOWN_CHARS + 1) : value);
  } catch {
    return Array.isArray(value) ? 'an array nested too deep to show' : 'an object nested too deep to show';
  }
  return text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text;
}

export function fail(path: string, expectation: string, value: unknown): never {
  throw new InvalidValue(path, `must be ${expectation}, got ${shown(value)}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object whose keys are all in `known`; any other key is refused with its path. */
export function fields(value: unknown, path: string, known: readonly string[]): Fields {
  if (!isObject(value)) fail(path === '' ? '(top level)' : path, 'an object', value);
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw new InvalidValue(at(path, key), 'unknown key');
  }
  return value;
}

export function required<T>(o: Fields, key: string, path: string, read: Reader<T>): T {
  const value = o[key];
  if (value === undefined) throw new InvalidValue(at(path, key), 'is required');
  return read(value, at(path, key));
}

export function optional<T>(o: Fields, key: string, path: string, fallback: T, read: Reader<T>): T {
  const value = o[key];
  return value === undefined ? fallback : read(value, at(path, key));
}

export function integer(min: number, max: number): Reader<number> {
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      fail(path, `an integer ${min}..${max}`, value);
    }
    return value;
  };
}

export interface NumberBounds {
  /** Exclusive lower bound. */
  readonly above?: number;
  /** Inclusive lower bound. */
  readonly atLeast?: number;
  readonly atMost?: number;
  /** Most decimal places the number may carry (prices to `digits`, money and lots to 2). */
  readonly decimals?: number;
}

export function hasAtMostDecimals(value: number, decimals: number): boolean {
  return Number(value.toFixed(decimals)) === value;
}

function describeBounds(b: NumberBounds): string {
  const parts: string[] = [];
  if (b.above !== undefined) parts.push(`> ${b.above}`);
  if (b.atLeast !== undefined) parts.push(`>= ${b.atLeast}`);
  if (b.atMost !== undefined) parts.push(`<= ${b.atMost}`);
  if (b.decimals !== undefined) parts.push(b.decimals === 0 ? 'whole' : `with at most ${b.decimals} decimals`);
  return `a number ${parts.join(', ')}`;
}

export function number(bounds: NumberBounds): Reader<number> {
  return (value, path) => {
    const ok = typeof value === 'number' && Number.isFinite(value)
      && (bounds.above === undefined || value > bounds.above)
      && (bounds.atLeast === undefined || value >= bounds.atLeast)
      && (bounds.atMost === undefined || value <= bounds.atMost)
      && (bounds.decimals === undefined || hasAtMostDecimals(value, bounds.decimals));
    if (!ok) fail(path, describeBounds(bounds), value);
    return value;
  };
}

const MAX_LOTS = 1_000_000;

/** A volume in lots: a positive multiple of 0.01 (spec "Limits": minimum 0.01, step 0.01). */
export const lots: Reader<number> = (value, path) => {
  if (typeof value !== 'number' || !(value > 0) || value > MAX_LOTS || !hasAtMostDecimals(value, 2)) {
    fail(path, `a multiple of 0.01 from 0.01 to ${MAX_LOTS}`, value);
  }
  return value;
};

export const boolean: Reader<boolean> = (value, path) => {
  if (typeof value !== 'boolean') fail(path, 'true or false', value);
  return value;
};

export function text(pattern: RegExp, expectation: string): Reader<string> {
  return (value, path) => {
    if (typeof value !== 'string' || !pattern.test(value)) fail(path, expectation, value);
    return value;
  };
}

/** Ids that travel in URL paths, headers and FIX fields: no separators, no spaces. */
export const identifier = text(/^[A-Za-z0-9_.-]{1,64}$/, '1..64 characters of A-Z a-z 0-9 _ . -');
export const currency = text(/^[A-Z]{3}$/, 'a 3-letter upper-case currency code');
export const anyText = text(/^[^\u0000-\u001f\u007f]{1,128}$/, '1..128 characters without control characters');

/** A shared secret: printable ASCII without spaces. Its value is never echoed in an error. */
export function secret(minChars: number): Reader<string> {
  const pattern = new RegExp(`^[\\x21-\\x7e]{${minChars},256}$`);
  return (value, path) => {
    if (typeof value !== 'string' || !pattern.test(value)) {
      const got = typeof value === 'string' ? `${value.length} characters` : shown(value);
      throw new InvalidValue(path, `must be ${minChars}..256 printable ASCII characters without spaces, got ${got}`);
    }
    return value;
  };
}

/** Operator token (config or fixture): long enough not to be guessed. */
export const adminToken = nullable(secret(16));

export function oneOf<T extends string>(values: readonly T[]): Reader<T> {
  return (value, path) => {
    if (!values.includes(value as T)) fail(path, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, value);
    return value as T;
  };
}

export function nullable<T>(read: Reader<T>): Reader<T | null> {
  return (value, path) => (value === null ? null : read(value, path));
}

export interface ListRules { readonly nonEmpty?: boolean; readonly unique?: boolean }

export function list<T>(read: Reader<T>, rules: ListRules = {}): Reader<T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) fail(path, 'an array', value);
    if (rules.nonEmpty && value.length === 0) throw new InvalidValue(path, 'must not be empty');
    const out = value.map((v: unknown, i) => read(v, item(path, i)));
    if (rules.unique) {
      const firstAt = new Map<T, number>();
      out.forEach((v, i) => {
        const first = firstAt.get(v);
        if (first !== undefined) throw new InvalidValue(item(path, i), `duplicates ${item(path, first)} (${shown(v)})`);
        firstAt.set(v, i);
      });
    }
    return out;
  };
}

/** An address or CIDR range of either family, kept as written (src/util/ip.ts parses it). */
export const cidr: Reader<string> = (value, path) => {
  if (typeof value !== 'string' || parseCidr(value) === null) fail(path, 'an IPv4/IPv6 address or CIDR range', value);
  return value;
};

/** "24x7" or a weekly window; the schedule's own error is reported at its field. */
export const session: Reader<SessionSpec> = (value, path) => {
  if (value === '24x7') return '24x7';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, '"24x7" or {"tz", "open", "close"}', value);
  }
  const o = fields(value, path, ['tz', 'open', 'close']);
  const part = text(/^/, 'a string');
  const spec = { tz: required(o, 'tz', path, part), open: required(o, 'open', path, part), close: required(o, 'close', path, part) };
  try {
    compileSession(spec);
  } catch (e) {
    if (e instanceof SessionSpecError) throw new InvalidValue(e.field === 'session' ? path : at(path, e.field), e.message);
    throw e;
  }
  return spec;
};
