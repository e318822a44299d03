// A signal body (spec "POST {hooks_url}/signal/{webhook_id}") as the fan-out needs it. The checks
// that concern every target at once run here, before anything trades: wrong shapes are 400, a
// symbol outside the webhook's list 403, values that cannot be an order 422; a signal that one of
// the webhook's sizing rules cannot size (multiplier without `volume`, risk_percent without `sl` and
// `tp`) is refused as a whole, so no target trades when another could not.
import type { Centilots, SymbolSpec, Ticks } from '../../engine/types.js';
import { ApiError } from '../errors.js';
import { knownSymbol, oneOf, priceTicks, requireString, volumeCentilots } from '../order-request.js';
import type { LiveWebhook } from './webhook-book.js';

export type SignalAction = 'buy' | 'sell' | 'close' | 'close_all';
export const SIGNAL_ACTIONS: readonly SignalAction[] = ['buy', 'sell', 'close', 'close_all'];
/** Spec "Limits" 3. */
export const MAX_COMMENT_CHARS = 32;
const FIELDS = ['secret', 'action', 'symbol', 'volume', 'sl', 'tp', 'comment'];
const MAX_SECRET_CHARS = 256;
const MAX_SYMBOL_CHARS = 32;

export interface Signal {
  readonly action: SignalAction;
  readonly symbol: SymbolSpec;
  /** Signal volume; scaled by multiplier targets, the amount to close for `close`. */
  readonly volume: Centilots | null;
  readonly sl: Ticks | null;
  readonly tp: Ticks | null;
  readonly comment: string | null;
}

function optionalNumber(body: Record<string, unknown>, field: string): number | null {
  const v = body[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ApiError('bad_request', `${field} must be a number`, { field });
  return v;
}

/** The body `secret`, when it is one (its absence is the credential check's business). */
export function bodySecret(body: Record<string, unknown>): string | null {
  const v = body['secret'];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_SECRET_CHARS) {
    throw new ApiError('bad_request', `secret must be a string of 1 to ${MAX_SECRET_CHARS} characters`, { field: 'secret' });
  }
  return v;
}

/** The dedup key, read before anything else is checked (a retried signal must answer the same). */
export function signalComment(body: Record<string, unknown>): string | null {
  const v = body['comment'];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new ApiError('bad_request', 'comment must be a string', { field: 'comment' });
  if (v.length > MAX_COMMENT_CHARS) throw new ApiError('bad_request', `comment is longer than ${MAX_COMMENT_CHARS} characters`, { field: 'comment' });
  return v === '' ? null : v;
}

/** What the sizing rules of this webhook's targets need from an opening signal. */
function sizingNeeds(hook: LiveWebhook, signal: Omit<Signal, 'comment'>): void {
  for (const target of hook.record.targets) {
    const { sizing, login } = target;
    if (sizing.type === 'multiplier' && signal.volume === null) {
      throw new ApiError('bad_request', `volume is required: target ${login} sizes by multiplier`, { field: 'volume' });
    }
    if (sizing.type === 'risk_percent' && (signal.sl === null || signal.tp === null)) {
      const field = signal.sl === null ? 'sl' : 'tp';
      throw new ApiError('bad_request', `${field} is required: target ${login} sizes by risk_percent`, { field });
    }
  }
}

export function parseSignal(body: Record<string, unknown>, hook: LiveWebhook, symbols: ReadonlyMap<string, SymbolSpec>): Signal {
  for (const key of Object.keys(body)) {
    if (!FIELDS.includes(key)) throw new ApiError('bad_request', `unknown field ${JSON.stringify(key)}`, { field: key });
  }
  const action = oneOf(body, 'action', SIGNAL_ACTIONS);
  const symbolName = requireString(body, 'symbol', MAX_SYMBOL_CHARS);
  if (!hook.record.symbols.includes(symbolName)) {
    throw new ApiError('forbidden', `symbol ${symbolName} is not allowed on webhook ${hook.record.id}`, { field: 'symbol' });
  }
  const symbol = knownSymbol(symbolName, symbols);
  const volume = optionalNumber(body, 'volume');
  const sl = optionalNumber(body, 'sl');
  const tp = optionalNumber(body, 'tp');
  const opening = action === 'buy' || action === 'sell';
  if (!opening && sl !== null) throw new ApiError('bad_request', 'sl is only for buy and sell signals', { field: 'sl' });
  if (!opening && tp !== null) throw new ApiError('bad_request', 'tp is only for buy and sell signals', { field: 'tp' });
  if (action === 'close_all' && volume !== null) throw new ApiError('bad_request', 'volume is not used by close_all (it closes everything this webhook opened)', { field: 'volume' });
  const signal = {
    action,
    symbol,
    volume: volume === null ? null : volumeCentilots(volume),
    sl: sl === null ? null : priceTicks(sl, 'sl', symbol),
    tp: tp === null ? null : priceTicks(tp, 'tp', symbol),
  };
  if (opening) sizingNeeds(hook, signal);
  return { ...signal, comment: signalComment(body) };
}
