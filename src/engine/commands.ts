// Run-time shape validation of commands. Everything a command carries is checked here before any
// state is read, so a malformed command is a bad_request and the handlers can trust their types.
import {
  describe, isInt, isName, isPositiveInt, isRecord, isSide, isSource, MAX_CLIENT_ID_CHARS,
  accountFieldsProblem, optionalNameProblem, optionalPriceProblem, quoteProblem, type Problem, problem,
} from './checks.js';
import { decimalRatio } from './exact.js';
import { badRequest } from './rejects.js';
import type { OrderType, Reject } from './types.js';

const ORDER_TYPES: readonly OrderType[] = ['market', 'limit', 'stop'];

function optionalVolumeProblem(v: unknown, field = 'volume'): Problem | null {
  return v === null || isPositiveInt(v) ? null : problem(field, `${field} must be null or a positive integer number of centilots (0.01 lot = 1)`);
}

function sizingProblem(v: unknown): Problem | null {
  if (v === null) return null;
  if (!isRecord(v) || !isRecord(v.rule)) return problem('sizing', 'sizing must be null or {rule, signalVolume}');
  const signal = optionalVolumeProblem(v.signalVolume);
  if (signal !== null) return signal;
  const rule = v.rule;
  switch (rule.type) {
    case 'fixed':
      return isPositiveInt(rule.lots) ? null : problem('sizing', 'fixed sizing needs lots as a positive integer number of centilots');
    case 'multiplier':
      return typeof rule.factor === 'number' && decimalRatio(rule.factor) !== null ? null : problem('sizing', 'multiplier sizing needs a positive decimal factor');
    case 'risk_percent':
      return typeof rule.percent === 'number' && decimalRatio(rule.percent) !== null ? null : problem('sizing', 'risk_percent sizing needs a positive decimal percent');
    default:
      return problem('sizing', `unknown sizing type ${describe(rule.type)}`);
  }
}

/** Source and key id of a trading command. */
function originProblem(c: Record<string, unknown>): Problem | null {
  if (!isSource(c.source)) return problem('source', 'source must be one of manual, api, webhook, strategy, copy');
  return optionalNameProblem(c.keyId, 'key_id');
}

function loginProblem(c: Record<string, unknown>): Problem | null {
  return isName(c.login) ? null : problem('login', 'login must be a non-empty string');
}

function placeProblem(c: Record<string, unknown>): Problem | null {
  if (!isName(c.symbol)) return problem('symbol', 'symbol must be a non-empty string');
  if (!isSide(c.side)) return problem('side', 'side must be "buy" or "sell"');
  if (!ORDER_TYPES.includes(c.type as OrderType)) return problem('type', 'type must be market, limit or stop');
  const sized = optionalVolumeProblem(c.volume) ?? sizingProblem(c.sizing);
  if (sized !== null) return sized;
  if ((c.volume === null) === (c.sizing === null)) return problem('volume', 'give either volume or sizing');
  if (c.type === 'market' && c.price !== null) return problem('price', 'market orders take no price (price must be null)');
  if (c.type !== 'market' && !isPositiveInt(c.price)) return problem('price', `${String(c.type)} orders need price as a positive integer number of ticks`);
  const levels = optionalPriceProblem(c.sl, 'sl') ?? optionalPriceProblem(c.tp, 'tp');
  if (levels !== null) return levels;
  if (c.clientId !== null && !isName(c.clientId, MAX_CLIENT_ID_CHARS)) {
    return problem('client_id', `client_id must be null or a string of 1 to ${MAX_CLIENT_ID_CHARS} characters`);
  }
  return originProblem(c) ?? optionalNameProblem(c.webhookId, 'webhook_id');
}

function cancelProblem(c: Record<string, unknown>): Problem | null {
  return (isName(c.orderId) ? null : problem('id', 'order id must be a non-empty string')) ?? originProblem(c);
}

function levelEditProblem(v: unknown, field: string): Problem | null {
  return v === 'keep' || v === 'remove' || isPositiveInt(v) ? null : problem(field, `${field} must be "keep", "remove" or a positive integer number of ticks`);
}

/** Absent sl/tp keep theirs (see ReplaceOrder). */
function optionalLevelEditProblem(v: unknown, field: string): Problem | null {
  return v === undefined ? null : levelEditProblem(v, field);
}

function replaceProblem(c: Record<string, unknown>): Problem | null {
  const shape = cancelProblem(c) ?? optionalPriceProblem(c.price, 'price') ?? optionalVolumeProblem(c.volume)
    ?? optionalLevelEditProblem(c.sl, 'sl') ?? optionalLevelEditProblem(c.tp, 'tp');
  if (shape !== null) return shape;
  const keepsLevels = (c.sl === undefined || c.sl === 'keep') && (c.tp === undefined || c.tp === 'keep');
  return c.price === null && c.volume === null && keepsLevels ? problem('price', 'an amend needs a new price, volume, sl or tp') : null;
}

function amendPositionProblem(c: Record<string, unknown>): Problem | null {
  if (!isPositiveInt(c.ticket)) return problem('ticket', 'ticket must be a positive integer');
  const shape = levelEditProblem(c.sl, 'sl') ?? levelEditProblem(c.tp, 'tp') ?? originProblem(c);
  if (shape !== null) return shape;
  return c.sl === 'keep' && c.tp === 'keep' ? problem('sl', 'an amend needs a new sl or tp') : null;
}

/** cancelAll and closeAll. */
function everyProblem(c: Record<string, unknown>): Problem | null {
  return optionalNameProblem(c.symbol, 'symbol') ?? originProblem(c);
}

function armDeadManProblem(c: Record<string, unknown>): Problem | null {
  if (!isName(c.keyId)) return problem('key_id', 'keyId must be a non-empty string');
  if (!isInt(c.timeoutMs) || c.timeoutMs < 0) return problem('timeout_ms', 'timeoutMs must be a non-negative integer number of milliseconds');
  return typeof c.closePositions === 'boolean' ? null : problem('close_positions', 'closePositions must be a boolean');
}

function fireDeadManProblem(c: Record<string, unknown>): Problem | null {
  if (!isName(c.keyId)) return problem('key_id', 'keyId must be a non-empty string');
  if (c.cause !== 'deadline' && c.cause !== 'disconnect') return problem('cause', 'cause must be "deadline" or "disconnect"');
  return typeof c.closePositions === 'boolean' ? null : problem('close_positions', 'closePositions must be a boolean');
}

function closeProblem(c: Record<string, unknown>): Problem | null {
  if (!isPositiveInt(c.ticket)) return problem('ticket', 'ticket must be a positive integer');
  return optionalVolumeProblem(c.volume) ?? originProblem(c);
}

function closeWebhookProblem(c: Record<string, unknown>): Problem | null {
  if (!isName(c.webhookId)) return problem('webhook_id', 'webhookId must be a non-empty string');
  return optionalNameProblem(c.symbol, 'symbol') ?? optionalVolumeProblem(c.volume);
}

function killSwitchProblem(c: Record<string, unknown>): Problem | null {
  if (c.scope !== 'user' && c.scope !== 'account') return problem('scope', 'scope must be "user" or "account"');
  return typeof c.active === 'boolean' ? null : problem('active', 'active must be a boolean');
}

function keyHaltProblem(c: Record<string, unknown>): Problem | null {
  if (!isName(c.keyId)) return problem('key_id', 'keyId must be a non-empty string');
  return typeof c.active === 'boolean' ? null : problem('active', 'active must be a boolean');
}

function shapeProblem(c: Record<string, unknown>): Problem | null {
  switch (c.kind) {
    case 'tick': return quoteProblem(c.quote);
    case 'upsertAccount': return accountFieldsProblem(c.account);
    case 'place': return loginProblem(c) ?? placeProblem(c);
    case 'cancel': return loginProblem(c) ?? cancelProblem(c);
    case 'replace': return loginProblem(c) ?? replaceProblem(c);
    case 'amendPosition': return loginProblem(c) ?? amendPositionProblem(c);
    case 'cancelAll':
    case 'closeAll': return loginProblem(c) ?? everyProblem(c);
    case 'armDeadMan': return loginProblem(c) ?? armDeadManProblem(c);
    case 'fireDeadMan': return loginProblem(c) ?? fireDeadManProblem(c);
    case 'close': return loginProblem(c) ?? closeProblem(c);
    case 'closeWebhook': return loginProblem(c) ?? closeWebhookProblem(c);
    case 'killSwitch': return loginProblem(c) ?? killSwitchProblem(c);
    case 'keyHalt': return loginProblem(c) ?? keyHaltProblem(c);
    default: return problem('kind', `unknown command kind ${describe(c.kind)}`);
  }
}

/** Null when `cmd` is a well-formed Command; otherwise the bad_request naming the first bad field. */
export function commandReject(cmd: unknown): Reject | null {
  if (!isRecord(cmd)) return badRequest('kind', 'a command must be an object');
  const p = shapeProblem(cmd);
  return p === null ? null : badRequest(p.field, p.message);
}
