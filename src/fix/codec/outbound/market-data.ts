// Outbound MarketDataSnapshotFullRefresh (W) and MarketDataRequestReject (Y).
import { type MDEntryTypeValue, type MDReqRejReasonValue, MsgType, Tag } from '../../dictionary.js';
import type { FixDecimal } from '../decimal.js';
import type { FixWriter, OutboundHeader } from '../writer.js';

export interface MDEntry {
  readonly type: MDEntryTypeValue;
  readonly px: FixDecimal;
  readonly size: FixDecimal | null;
}

export interface MarketDataSnapshotFields {
  readonly mdReqId: string;
  readonly symbol: string;
  /** NoMDEntries is required with at least one entry (MDFullGrp* in FIX44): bid and offer. */
  readonly entries: readonly [MDEntry, ...MDEntry[]];
}

export function encodeMarketDataSnapshot(w: FixWriter, h: OutboundHeader, m: MarketDataSnapshotFields): void {
  w.begin(MsgType.MarketDataSnapshotFullRefresh, h);
  w.str(Tag.MDReqID, m.mdReqId);
  w.str(Tag.Symbol, m.symbol);
  w.int(Tag.NoMDEntries, m.entries.length);
  for (const e of m.entries) {
    w.char(Tag.MDEntryType, e.type);
    w.decimal(Tag.MDEntryPx, e.px);
    if (e.size !== null) w.decimal(Tag.MDEntrySize, e.size);
  }
  w.finish();
}

export interface MarketDataRequestRejectFields {
  readonly mdReqId: string;
  readonly reason: MDReqRejReasonValue | null;
  readonly text: string | null;
}

export function encodeMarketDataRequestReject(w: FixWriter, h: OutboundHeader, m: MarketDataRequestRejectFields): void {
  w.begin(MsgType.MarketDataRequestReject, h);
  w.str(Tag.MDReqID, m.mdReqId);
  if (m.reason !== null) w.char(Tag.MDReqRejReason, m.reason);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}
