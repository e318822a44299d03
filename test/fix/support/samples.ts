// Messages and helpers shared by the FIX codec tests. Times are fixed: no test reads the clock.
import { encodeExecutionReport, type ExecutionReportFields } from '../../../src/fix/codec/outbound/orders.js';
import { encodeHeartbeat, encodeLogon, encodeTestRequest } from '../../../src/fix/codec/outbound/session.js';
import { FixFramer, FrameStatus, type GarbleReasonValue } from '../../../src/fix/codec/framer.js';
import { CompIds, FixWriter, type OutboundHeader } from '../../../src/fix/codec/writer.js';
import {
  EncryptMethod, ExecType, MsgType, OrdStatus, OrdType, Side, Tag, TimeInForce,
} from '../../../src/fix/dictionary.js';

export const T0 = Date.UTC(2026, 2, 2, 9, 30, 15, 250);
export const GATEWAY_IDS = new CompIds('TASGW', 'TAS_1001');
export const CLIENT_IDS = new CompIds('TAS_1001', 'TASGW');

export function header(msgSeqNum: number, compIds: CompIds = GATEWAY_IDS): OutboundHeader {
  return { compIds, msgSeqNum, sendingTimeMs: T0 + msgSeqNum, origSendingTimeMs: null };
}

export function copyOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes);
}

export function ascii(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1').replaceAll('\x01', '|');
}

export function fromAscii(text: string): Buffer {
  return Buffer.from(text.replaceAll('|', '\x01'), 'latin1');
}

export const FILL: ExecutionReportFields = {
  orderId: 'O-77', clOrdId: 'C-1', origClOrdId: null, ordStatusReqId: null, execId: 'E-9', execType: ExecType.Trade,
  ordStatus: OrdStatus.Filled, ordRejReason: null, account: '1001', symbol: 'EURUSD', side: Side.Buy,
  orderQty: { units: 100_000, scale: 0 }, ordType: OrdType.Market, price: null, stopPx: null,
  timeInForce: TimeInForce.ImmediateOrCancel,
  fill: { lastQty: { units: 100_000, scale: 0 }, lastPx: { units: 108_512, scale: 5 } },
  leavesQty: { units: 0, scale: 0 }, cumQty: { units: 100_000, scale: 0 }, avgPx: { units: 108_512, scale: 5 },
  transactTimeMs: T0, text: null,
};

/** A NewOrderSingle as a client sends it, built with the writer's field API. */
export function newOrderSingle(w: FixWriter, seq: number, clOrdId = 'C-1'): Buffer {
  w.begin(MsgType.NewOrderSingle, header(seq, CLIENT_IDS));
  w.str(Tag.ClOrdID, clOrdId);
  w.str(Tag.Account, '1001');
  w.str(Tag.Symbol, 'EURUSD');
  w.char(Tag.Side, Side.Buy);
  w.utcTimestamp(Tag.TransactTime, T0);
  w.decimal(Tag.OrderQty, { units: 100_000, scale: 0 });
  w.char(Tag.OrdType, OrdType.Limit);
  w.decimal(Tag.Price, { units: 108_500, scale: 5 });
  w.char(Tag.TimeInForce, TimeInForce.GoodTillCancel);
  w.finish();
  return copyOf(w.lastMessage());
}

/** Several different valid messages, as one client stream would carry them. */
export function sampleStream(): Buffer[] {
  const w = new FixWriter();
  const out: Buffer[] = [];
  encodeLogon(w, header(1), { encryptMethod: EncryptMethod.None, heartBtIntSec: 30, resetSeqNumFlag: true });
  out.push(copyOf(w.lastMessage()));
  out.push(newOrderSingle(w, 2));
  encodeHeartbeat(w, header(3), null);
  out.push(copyOf(w.lastMessage()));
  encodeExecutionReport(w, header(4), { ...FILL, text: 'filled at 1.08512 — thanks' });
  out.push(copyOf(w.lastMessage()));
  encodeTestRequest(w, header(5), 'ping-1');
  out.push(copyOf(w.lastMessage()));
  return out;
}

export type FrameEvent =
  | { readonly kind: 'message'; readonly text: string }
  | { readonly kind: 'garbled'; readonly reason: GarbleReasonValue; readonly dropped: number };

/** Feeds the chunks in order, draining after each, and records what the framer reports. */
export function frameChunks(chunks: readonly Uint8Array[], maxMessageBytes = 64 * 1024, framer = new FixFramer({ maxMessageBytes })): FrameEvent[] {
  const events: FrameEvent[] = [];
  for (const chunk of chunks) {
    framer.push(chunk);
    for (let st = framer.next(); st !== FrameStatus.NeedMore; st = framer.next()) {
      if (st === FrameStatus.Message) {
        events.push({ kind: 'message', text: framer.bytes.toString('latin1', framer.frameStart, framer.frameEnd) });
      } else {
        events.push({ kind: 'garbled', reason: framer.garbleReason, dropped: framer.droppedBytes });
      }
    }
  }
  return events;
}

export function messagesOf(events: readonly FrameEvent[]): string[] {
  return events.flatMap((e) => (e.kind === 'message' ? [e.text] : []));
}

/** A framed message from "35=..|49=..|...|" (pipes for SOH): 8, 9 and 10 are computed. */
export function frame(fields: string): Buffer {
  const body = fromAscii(fields.endsWith('|') ? fields : `${fields}|`);
  const head = fromAscii(`8=FIX.4.4|9=${body.length}|`);
  const both = Buffer.concat([head, body]);
  let sum = 0;
  for (const b of both) sum += b;
  return Buffer.concat([both, fromAscii(`10=${String(sum % 256).padStart(3, '0')}|`)]);
}

/** The standard header of a client message with MsgSeqNum `seq` (pipes for SOH). */
export function clientHeader(msgType: string, seq: number): string {
  return `35=${msgType}|49=TAS_1001|56=TASGW|34=${seq}|52=20260302-09:30:15.250|`;
}
