// The client's side of the stream (DECISIONS "WebSocket messages"): JSON text frames holding one
// object with `op` subscribe, unsubscribe, ping, or the dead-man's switch ops cancel_all_after and
// cancel_on_disconnect. Parsing checks shape only; whether a symbol
// exists or a login is visible is the connection's question. Unknown fields are refused like in
// REST: a misspelt `since_seq` must not silently become a snapshot.

export const CHANNELS = ['quotes', 'orders', 'positions', 'account'] as const;
export type Channel = (typeof CHANNELS)[number];
/** Channels whose messages are an account's numbered events. */
export type EventChannel = 'orders' | 'positions';
export const EVENT_CHANNELS: readonly EventChannel[] = ['orders', 'positions'];

/** Echoed in the answer; an integer or a short string, null when the op had none. */
export type OpId = number | string | null;

export interface SubscribeOp {
  readonly op: 'subscribe';
  readonly id: OpId;
  readonly channels: readonly Channel[];
  readonly symbols: readonly string[];
  readonly login: string | null;
  /** Replay the account's events after this seq before going live; null = start with a snapshot. */
  readonly sinceSeq: number | null;
}

export interface UnsubscribeOp {
  readonly op: 'unsubscribe';
  readonly id: OpId;
  readonly channels: readonly Channel[];
  /** Quote symbols to drop; null with `quotes` in channels = every symbol. */
  readonly symbols: readonly string[] | null;
  readonly login: string | null;
}

export interface PingOp { readonly op: 'ping'; readonly id: OpId }

/** Arms (timeout_ms > 0) or disarms (0) the key's dead-man's switch, as POST /v1/cancel-all-after. */
export interface CancelAllAfterOp { readonly op: 'cancel_all_after'; readonly id: OpId; readonly body: Readonly<Record<string, unknown>> }

/** While enabled, this connection dropping fires the key's dead-man's switch at once. */
export interface CancelOnDisconnectOp { readonly op: 'cancel_on_disconnect'; readonly id: OpId; readonly enabled: boolean; readonly closePositions: boolean }

export type ClientOp = SubscribeOp | UnsubscribeOp | PingOp | CancelAllAfterOp | CancelOnDisconnectOp;
export const OPS: readonly ClientOp['op'][] = ['subscribe', 'unsubscribe', 'ping', 'cancel_all_after', 'cancel_on_disconnect'];

export interface OpProblem { readonly id: OpId; readonly message: string; readonly field?: string }

export type ParsedOp = { readonly ok: true; readonly op: ClientOp } | { readonly ok: false; readonly problem: OpProblem };

const MAX_ID_LENGTH = 64;
const MAX_SYMBOL_LENGTH = 32;
const MAX_LOGIN_LENGTH = 20;
const FIELDS: Readonly<Record<ClientOp['op'], readonly string[]>> = {
  subscribe: ['op', 'id', 'channels', 'symbols', 'login', 'since_seq'],
  unsubscribe: ['op', 'id', 'channels', 'symbols', 'login'],
  ping: ['op', 'id'],
  cancel_all_after: ['op', 'id', 'timeout_ms', 'close_positions'],
  cancel_on_disconnect: ['op', 'id', 'enabled', 'close_positions'],
};

/**
 * A value the client sent, for an error message: scalars as JSON (strings cut short), arrays and
 * objects by kind only, since JSON.stringify recurses and a deeply nested value would overflow it.
 */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > MAX_SYMBOL_LENGTH ? `${v.slice(0, MAX_SYMBOL_LENGTH)}…` : v);
  if (v === null || typeof v !== 'object') return String(v);
  return Array.isArray(v) ? 'an array' : 'an object';
}

class Refusal extends Error {
  constructor(message: string, readonly field?: string) { super(message); }
}

export function parseOp(text: string): ParsedOp {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: { id: null, message: `malformed JSON: ${(e as Error).message}` } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, problem: { id: null, message: 'a client message must be a JSON object with "op"' } };
  }
  const body = value as Record<string, unknown>;
  const rawId = body['id'];
  const id: OpId = (Number.isSafeInteger(rawId) || (typeof rawId === 'string' && rawId.length <= MAX_ID_LENGTH)) ? rawId as number | string : null;
  try {
    if (rawId !== undefined && rawId !== null && id === null) {
      throw new Refusal(`id must be an integer or a string of at most ${MAX_ID_LENGTH} characters`, 'id');
    }
    return { ok: true, op: parseBody(body, id) };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    return { ok: false, problem: e.field === undefined ? { id, message: e.message } : { id, message: e.message, field: e.field } };
  }
}

function parseBody(body: Record<string, unknown>, id: OpId): ClientOp {
  const op = OPS.find((o) => o === body['op']);
  if (op === undefined) {
    const named = body['op'] === undefined ? 'op is required' : `unknown op ${shown(body['op'])}`;
    throw new Refusal(`${named}; ops are ${OPS.join(', ')}`, 'op');
  }
  for (const key of Object.keys(body)) {
    if (!FIELDS[op].includes(key)) throw new Refusal(`unknown field ${JSON.stringify(key)} for op ${op}`, key);
  }
  if (op === 'ping') return { op, id };
  // Its range is configuration: the hub checks it as the REST route does.
  if (op === 'cancel_all_after') return { op, id, body };
  if (op === 'cancel_on_disconnect') return { op, id, enabled: requiredBoolean(body, 'enabled'), closePositions: optionalBoolean(body, 'close_positions') };
  const channels = parseChannels(body['channels']);
  const login = optionalString(body, 'login', MAX_LOGIN_LENGTH);
  const hasQuotes = channels.includes('quotes');
  if (login !== null && channels.every((c) => c === 'quotes')) throw new Refusal('login goes with the orders, positions or account channel', 'login');
  const rawSymbols = body['symbols'];
  if (rawSymbols !== undefined && rawSymbols !== null && !hasQuotes) throw new Refusal('symbols go with the quotes channel', 'symbols');
  if (op === 'unsubscribe') {
    return { op, id, channels, symbols: rawSymbols === undefined || rawSymbols === null ? null : parseSymbols(rawSymbols), login };
  }
  if (hasQuotes && (rawSymbols === undefined || rawSymbols === null)) throw new Refusal('symbols are required with the quotes channel', 'symbols');
  const symbols = hasQuotes ? parseSymbols(rawSymbols) : [];
  if (hasQuotes && symbols.length === 0) throw new Refusal('symbols must name at least one symbol', 'symbols');
  return { op, id, channels, symbols, login, sinceSeq: parseSinceSeq(body['since_seq'], channels) };
}

function requiredBoolean(body: Record<string, unknown>, field: string): boolean {
  const v = body[field];
  if (typeof v !== 'boolean') throw new Refusal(`${field} must be true or false`, field);
  return v;
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean {
  return body[field] === undefined || body[field] === null ? false : requiredBoolean(body, field);
}

function parseChannels(raw: unknown): Channel[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new Refusal('channels must be a non-empty array', 'channels');
  const out: Channel[] = [];
  for (const c of raw) {
    if (typeof c !== 'string' || !(CHANNELS as readonly string[]).includes(c)) {
      throw new Refusal(`unknown channel ${shown(c)}; channels are ${CHANNELS.join(', ')}`, 'channels');
    }
    if (!out.includes(c as Channel)) out.push(c as Channel);
  }
  return out;
}

function parseSymbols(raw: unknown): string[] {
  if (!Array.isArray(raw)) throw new Refusal('symbols must be an array of strings', 'symbols');
  const out = new Set<string>();
  for (const s of raw) {
    if (typeof s !== 'string' || s.length === 0 || s.length > MAX_SYMBOL_LENGTH) {
      throw new Refusal(`symbols must be non-empty strings of at most ${MAX_SYMBOL_LENGTH} characters`, 'symbols');
    }
    out.add(s);
  }
  return [...out];
}

function optionalString(body: Record<string, unknown>, field: string, maxLength: number): string | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length === 0 || v.length > maxLength) {
    throw new Refusal(`${field} must be a non-empty string of at most ${maxLength} characters`, field);
  }
  return v;
}

function parseSinceSeq(raw: unknown, channels: readonly Channel[]): number | null {
  if (raw === undefined || raw === null) return null;
  if (!Number.isSafeInteger(raw) || (raw as number) < 0) throw new Refusal('since_seq must be a non-negative integer', 'since_seq');
  if (!channels.some((c) => c === 'orders' || c === 'positions')) throw new Refusal('since_seq goes with the orders or positions channel', 'since_seq');
  return raw as number;
}
