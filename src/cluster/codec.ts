// Messages between nodes, msgpack-encoded (one message, one self-contained value: no sequential
// structures across messages, which NATS may deliver to a node that missed earlier ones). A
// message on a tas subject that does not decode, or decodes to the wrong shape, is refused here
// with a reason the caller logs; nothing of it is applied.
import { Packr } from 'msgpackr';
import type { Quote } from '../engine/types.js';
import type { JournalEntry } from '../store/journal/entry.js';
import type { Answer, CommandItem } from '../shard/protocol.js';
import type { Peer } from '../shard/core.js';

const packr = new Packr({ useRecords: false, moreTypes: false });

/** Who sent a journaled command: a node's peer and its correlation id there. */
export type Origin = readonly [lsn: number, node: string, peer: Peer, corr: number];

export type JournalMessage =
  /** One committed batch: its records from `firstLsn` on, consecutive. */
  | { readonly t: 'batch'; readonly firstLsn: number; readonly entries: readonly JournalEntry[]; readonly origins: readonly Origin[] }
  /** A node took the shard; written before it journals anything, it fences every earlier owner. */
  | { readonly t: 'lead'; readonly node: string; readonly atMs: number };

/** Commands a node's peer sends the shard's owner. */
export interface ForwardRequest { readonly node: string; readonly peer: Peer; readonly items: readonly CommandItem[] }

export type ForwardedAnswer =
  /** Answered without a record (a refusal): final. */
  | { readonly k: 'answer'; readonly corr: number; readonly answer: Answer }
  /** Journaled at `lsn`: the sender's replica answers when it applies that record. */
  | { readonly k: 'journaled'; readonly corr: number; readonly lsn: number };

export interface ForwardReply { readonly items: readonly ForwardedAnswer[] }

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly why: string };

export function encode(value: JournalMessage | ForwardRequest | ForwardReply): Uint8Array {
  return packr.pack(value);
}

function unpack(bytes: Uint8Array): Decoded<Record<string, unknown>> {
  let value: unknown;
  try {
    value = packr.unpack(bytes);
  } catch (err) {
    return { ok: false, why: `not msgpack: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, why: 'not a map' };
  return { ok: true, value: value as Record<string, unknown> };
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isPeer = (v: unknown): v is Peer => v === 0 || v === 1;
const isEntry = (v: unknown): boolean => typeof v === 'object' && v !== null && isCount((v as JournalEntry).nowMs)
  && typeof (v as JournalEntry).cmd === 'object' && (v as JournalEntry).cmd !== null && typeof (v as JournalEntry).cmd.kind === 'string';
const isOrigin = (v: unknown): boolean => Array.isArray(v) && v.length === 4 && isCount(v[0]) && typeof v[1] === 'string' && isPeer(v[2]) && isCount(v[3]);

export function decodeJournal(bytes: Uint8Array): Decoded<JournalMessage> {
  const d = unpack(bytes);
  if (!d.ok) return d;
  const m = d.value;
  if (m['t'] === 'lead') {
    return typeof m['node'] === 'string' && isCount(m['atMs']) ? { ok: true, value: m as unknown as JournalMessage } : { ok: false, why: 'a lead marker without node or time' };
  }
  if (m['t'] !== 'batch') return { ok: false, why: `unknown journal message ${JSON.stringify(m['t'])}` };
  const entries = m['entries'];
  const origins = m['origins'];
  if (!isCount(m['firstLsn']) || m['firstLsn'] === 0) return { ok: false, why: 'a batch without its first LSN' };
  if (!Array.isArray(entries) || entries.length === 0 || !entries.every(isEntry)) return { ok: false, why: 'a batch whose entries are not journal entries' };
  if (!Array.isArray(origins) || !origins.every(isOrigin)) return { ok: false, why: 'a batch whose origins are malformed' };
  return { ok: true, value: m as unknown as JournalMessage };
}

export function decodeForward(bytes: Uint8Array): Decoded<ForwardRequest> {
  const d = unpack(bytes);
  if (!d.ok) return d;
  const m = d.value;
  const items = m['items'];
  if (typeof m['node'] !== 'string' || !isPeer(m['peer'])) return { ok: false, why: 'a forwarded command without its node or peer' };
  const wellFormed = Array.isArray(items) && items.length > 0 && items.every((i: unknown) => typeof i === 'object' && i !== null
    && isCount((i as CommandItem).corr) && typeof (i as CommandItem).cmd === 'object' && (i as CommandItem).cmd !== null
    && typeof (i as CommandItem).cmd.kind === 'string');
  return wellFormed ? { ok: true, value: m as unknown as ForwardRequest } : { ok: false, why: 'forwarded commands that are not command items' };
}

export function decodeReply(bytes: Uint8Array): Decoded<ForwardReply> {
  const d = unpack(bytes);
  if (!d.ok) return d;
  const items = d.value['items'];
  const wellFormed = Array.isArray(items) && items.every((i: unknown) => {
    if (typeof i !== 'object' || i === null || !isCount((i as ForwardedAnswer).corr)) return false;
    const a = i as ForwardedAnswer;
    return a.k === 'journaled' ? isCount(a.lsn) : a.k === 'answer' && typeof a.answer === 'object' && a.answer !== null && typeof a.answer.t === 'string';
  });
  return wellFormed ? { ok: true, value: d.value as unknown as ForwardReply } : { ok: false, why: 'a reply whose items are malformed' };
}

const isTicks = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;

export function encodeQuote(q: Quote): Uint8Array {
  return packr.pack([q.symbol, q.bid, q.ask, q.ts]);
}

export function decodeQuote(bytes: Uint8Array): Decoded<Quote> {
  let v: unknown;
  try {
    v = packr.unpack(bytes);
  } catch (err) {
    return { ok: false, why: `not msgpack: ${(err as Error).message}` };
  }
  if (!Array.isArray(v) || v.length !== 4) return { ok: false, why: 'a quote is [symbol, bid, ask, ts]' };
  const [symbol, bid, ask, ts] = v as unknown[];
  if (typeof symbol !== 'string' || !isTicks(bid) || !isTicks(ask) || ask < bid || !isCount(ts)) return { ok: false, why: 'a quote with a bad symbol, price or time' };
  return { ok: true, value: { symbol, bid, ask, ts } };
}
