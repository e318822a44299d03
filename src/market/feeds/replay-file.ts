// Replay files: CSV lines `ts,symbol,bid,ask` (Unix ms, name, decimal prices), an optional header
// line, blank lines ignored. The whole file is validated before anything is replayed, and the first
// bad line is refused with the file path and its 1-based line number.
import { readFile } from 'node:fs/promises';
import type { Ticks, UnixMs } from '../../engine/types.js';
import { parseTicks } from '../ticks.js';

export interface ReplayRow { readonly ts: UnixMs; readonly symbol: string; readonly bid: Ticks; readonly ask: Ticks }

export interface ReplayTape { readonly path: string; readonly rows: readonly ReplayRow[] }

export class ReplayFileError extends Error {
  constructor(readonly path: string, readonly line: number | null, reason: string) {
    super(line === null ? `${path}: ${reason}` : `${path}:${line}: ${reason}`);
  }
}

const HEADER = 'ts,symbol,bid,ask';
const INTEGER = /^\d+$/;

/** One data line to a row, or the reason it is refused. */
function parseRow(line: string, previousTs: number, digitsBySymbol: ReadonlyMap<string, number>): ReplayRow | string {
  const fields = line.split(',').map((f) => f.trim());
  if (fields.length !== 4) return `expected 4 fields ts,symbol,bid,ask, got ${fields.length}`;
  const [tsText = '', symbol = '', bidText = '', askText = ''] = fields;
  const ts = INTEGER.test(tsText) ? Number(tsText) : NaN;
  if (!Number.isSafeInteger(ts)) return `ts must be Unix milliseconds (a whole number), got ${JSON.stringify(tsText)}`;
  if (ts < previousTs) return `ts ${ts} is earlier than the previous row's ${previousTs}`;
  const digits = digitsBySymbol.get(symbol);
  if (digits === undefined) return `symbol ${JSON.stringify(symbol)} is not one the replay prices`;
  const bid = parseTicks(bidText, digits);
  if (bid === null || bid < 1) return `bid must be a positive price with at most ${digits} decimals, got ${JSON.stringify(bidText)}`;
  const ask = parseTicks(askText, digits);
  if (ask === null || ask < 1) return `ask must be a positive price with at most ${digits} decimals, got ${JSON.stringify(askText)}`;
  if (ask < bid) return `ask ${askText} is below bid ${bidText}`;
  return { ts, symbol, bid, ask };
}

/**
 * `digitsBySymbol` holds the symbols the replay may price (with their digits); a row naming any
 * other symbol is refused, whether the symbol is unknown or priced by another source.
 */
export function parseReplayCsv(text: string, path: string, digitsBySymbol: ReadonlyMap<string, number>): ReplayTape {
  const rows: ReplayRow[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim(); // trim() also drops a CRLF file's \r
    if (line === '') continue;
    if (rows.length === 0 && line.toLowerCase().replace(/\s+/g, '') === HEADER) continue;
    const row = parseRow(line, rows.at(-1)?.ts ?? 0, digitsBySymbol);
    if (typeof row === 'string') throw new ReplayFileError(path, i + 1, row);
    rows.push(row);
  }
  if (rows.length === 0) throw new ReplayFileError(path, null, 'no quotes in the file');
  return { path, rows };
}

export async function loadReplayFile(path: string, digitsBySymbol: ReadonlyMap<string, number>): Promise<ReplayTape> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ReplayFileError(path, null, `cannot read: ${(err as Error).message}`);
  }
  return parseReplayCsv(text, path, digitsBySymbol);
}
