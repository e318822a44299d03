// OrderMassCancelRequest (q) → OrderMassCancelReport (r), then one ExecutionReport (8, 150=4) per
// cancelled order (they reach the session as the account's events). Scopes: 530=1 the orders of
// one Symbol (55), 530=7 every pending order of the account; any other scope, a Side (54) filter,
// an unknown symbol or a refusal is an r with 531=0 and MassCancelRejectReason (532) and a Text.
// One command to the account's shard cancels them all, as REST DELETE /v1/orders does.
import { readOrderMassCancelRequest, type OrderMassCancelRequest } from '../codec/inbound/orders.js';
import { encodeOrderMassCancelReport } from '../codec/outbound/orders.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import {
  MassCancelRejectReason, type MassCancelRejectReasonValue, MassCancelRequestType, MassCancelResponse, type MassCancelResponseValue, MsgType,
} from '../dictionary.js';
import type { OrderRecord } from '../../engine/types.js';
import type { Answer } from '../../shard/protocol.js';
import { RATE_LIMITED_TEXT, busyText, lacksScope, rejectText, symbolOf, type Desk } from './desk.js';

function report(desk: Desk, m: OrderMassCancelRequest, response: MassCancelResponseValue, cancelled: readonly OrderRecord[], reason: MassCancelRejectReasonValue | null, text: string | null): void {
  desk.session.send(MsgType.OrderMassCancelReport, (w, h) => encodeOrderMassCancelReport(w, h, {
    orderId: desk.execIds.next(desk.login), clOrdId: m.clOrdId, massCancelRequestType: m.massCancelRequestType,
    massCancelResponse: response, massCancelRejectReason: reason, totalAffectedOrders: cancelled.length,
    affected: cancelled.map((o) => ({ origClOrdId: desk.tracker.clOrdIdOf(o), orderId: o.id })),
    symbol: m.symbol, transactTimeMs: desk.nowMs(), text,
  }));
}

const refuse = (desk: Desk, m: OrderMassCancelRequest, reason: MassCancelRejectReasonValue, text: string): void =>
  report(desk, m, MassCancelResponse.CancelRequestRejected, [], reason, text);

type Scope =
  | { readonly t: 'scope'; readonly symbol: string | null }
  | { readonly t: 'refused'; readonly reason: MassCancelRejectReasonValue; readonly text: string };

const refused = (reason: MassCancelRejectReasonValue, text: string): Scope => ({ t: 'refused', reason, text });

/** Why the request cannot go to the shard, or the symbol filter it asks for. */
function scopeOf(desk: Desk, m: OrderMassCancelRequest, throttled: boolean): Scope {
  const other = MassCancelRejectReason.Other;
  if (throttled) return refused(other, RATE_LIMITED_TEXT);
  const forbidden = lacksScope(desk, 'trade');
  if (forbidden !== null) return refused(other, forbidden);
  if (m.side !== null) return refused(other, 'Side (54) is not supported: a mass cancel takes every side');
  if (m.massCancelRequestType === MassCancelRequestType.CancelAllOrders) return { t: 'scope', symbol: null };
  if (m.massCancelRequestType !== MassCancelRequestType.CancelOrdersForASecurity) {
    return refused(MassCancelRejectReason.MassCancelNotSupported, `MassCancelRequestType (530) ${m.massCancelRequestType} is not supported: 1 (one Symbol) or 7 (all orders)`);
  }
  if (m.symbol === null) return refused(MassCancelRejectReason.InvalidOrUnknownSecurity, 'Symbol (55) is required with MassCancelRequestType (530) 1');
  if (symbolOf(desk, m.symbol) === undefined) return refused(MassCancelRejectReason.InvalidOrUnknownSecurity, `unknown symbol ${m.symbol}`);
  return { t: 'scope', symbol: m.symbol };
}

function answered(desk: Desk, m: OrderMassCancelRequest, answer: Answer): void {
  if (answer.t === 'done' && answer.result.kind === 'cancelMany') {
    for (const o of answer.result.cancelled) desk.tracker.see(o);
    report(desk, m, m.massCancelRequestType === MassCancelRequestType.CancelAllOrders ? MassCancelResponse.CancelAllOrders : MassCancelResponse.CancelOrdersForASecurity,
      answer.result.cancelled, null, null);
    return;
  }
  const text = answer.t === 'rejected' ? rejectText(answer.reject) : answer.t === 'unavailable' ? `unavailable: ${answer.message}` : 'internal error: unexpected shard reply';
  refuse(desk, m, MassCancelRejectReason.Other, text);
}

export function onOrderMassCancelRequest(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readOrderMassCancelRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  const scope = scopeOf(desk, m, throttled);
  if (scope.t === 'refused') {
    refuse(desk, m, scope.reason, scope.text);
    return;
  }
  const sent = desk.deps.shards.command(desk.login, { kind: 'cancelAll', login: desk.login, symbol: scope.symbol, source: 'api', keyId: desk.keyId },
    (answer) => answered(desk, m, answer));
  if (!sent) refuse(desk, m, MassCancelRejectReason.Other, busyText(desk.login));
}
