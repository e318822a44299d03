// A bare WebSocket client for the fan-out bench: the RFC 6455 handshake over net, then a frame
// reader that does no more per message than the bench needs (count it, read its `ts`). A general
// client (`ws`) spends more CPU per frame than the server does per send, and on 2 cores the
// clients would measure themselves; this one reads with net's `onread` into one shared buffer (no
// stream machinery, no allocation per read). Server frames are unmasked text frames holding quote
// objects separated by `\n`, each ending in `"ts":<ms>}`.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

const NEWLINE = 0x0a;
const COLON = 0x3a;
const DOT = 0x2e;
const ZERO = 0x30;
const OP_TEXT = 0x1;
const OP_CLOSE = 0x8;
const HEADER_END = Buffer.from('\r\n\r\n');
/** Two quote objects and their newline take at least this many bytes (`{"channel":"quote"...}` alone is 60+). */
const MIN_TWO_QUOTES_BYTES = 121;

/** Called per quote with its `ts` and the arrival time of the read that carried it (Unix ms). */
export type OnQuote = (tsMs: number, arrivedMs: number) => void;

export interface SinkStats { reads: number; frames: number; messages: number; bytes: number }

/** Every read of every sink lands here and is parsed before the next read (one thread). */
const READ_BUFFER = Buffer.alloc(256 * 1024);

export class QuoteSink {
  /** An incomplete frame (or handshake) carried over to the next read. */
  private pending: Buffer | null = null;
  private upgraded = false;
  private socket: net.Socket | null = null;

  /** Arrival time of the read being parsed. */
  private arrivedMs = 0;

  private constructor(private readonly onQuote: OnQuote, private readonly clock: () => number, private readonly stats: SinkStats) {}

  static connect(port: number, path: string, onQuote: OnQuote, clock: () => number, stats: SinkStats): Promise<QuoteSink> {
    const sink = new QuoteSink(onQuote, clock, stats);
    return new Promise((resolve, reject) => {
      const socket = net.connect({
        port, host: '127.0.0.1',
        onread: {
          buffer: READ_BUFFER,
          callback: (n: number, buf: Buffer): boolean => {
            if (sink.upgraded) sink.read(buf, n);
            else sink.handshake(buf.subarray(0, n), resolve, reject);
            return true;
          },
        },
      });
      sink.socket = socket;
      socket.setNoDelay(true);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n`
          + `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
      });
    });
  }

  close(): void { this.socket?.destroy(); }

  private handshake(chunk: Buffer, resolve: (s: QuoteSink) => void, reject: (e: Error) => void): void {
    const all = this.pending ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk);
    const end = all.indexOf(HEADER_END);
    if (end < 0) { this.pending = all; return; }
    this.pending = null;
    if (!all.toString('latin1', 0, 12).startsWith('HTTP/1.1 101')) {
      reject(new Error(`upgrade refused: ${all.toString('latin1', 0, end)}`));
      this.close();
      return;
    }
    this.upgraded = true;
    resolve(this);
    if (all.length > end + 4) this.read(all.subarray(end + 4), all.length - end - 4);
  }

  private read(chunk: Buffer, n: number): void {
    this.stats.reads++;
    this.arrivedMs = this.clock();
    const buf = this.pending ? Buffer.concat([this.pending, chunk.subarray(0, n)]) : chunk;
    const length = this.pending ? buf.length : n;
    this.pending = null;
    let at = 0;
    while (length - at >= 2) {
      const op = buf[at]! & 0x0f;
      let len = buf[at + 1]! & 0x7f;
      let head = 2;
      if (len === 126) {
        if (length - at < 4) break;
        len = buf.readUInt16BE(at + 2);
        head = 4;
      } else if (len === 127) {
        if (length - at < 10) break;
        len = Number(buf.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (length - at < head + len) break;
      const start = at + head;
      const end = start + len;
      if (op === OP_TEXT) this.frame(buf, start, end);
      else if (op === OP_CLOSE) { this.close(); return; }
      at = end;
    }
    // The shared read buffer is reused on the next read: keep a copy of what is left.
    if (at < length) this.pending = Buffer.from(buf.subarray(at, length));
  }

  /**
   * Each message's ts sits between its last ':' and its closing '}'. A frame shorter than two
   * quotes holds one: no newline scan for it.
   */
  private frame(buf: Buffer, start: number, end: number): void {
    this.stats.frames++;
    this.stats.bytes += end - start;
    let msgEnd = end;
    while (msgEnd > start) {
      let nl = start - 1;
      if (end - start >= MIN_TWO_QUOTES_BYTES) for (nl = msgEnd - 1; nl >= start && buf[nl] !== NEWLINE; nl--);
      let colon = msgEnd - 2;
      while (colon > nl && buf[colon] !== COLON) colon--;
      this.stats.messages++;
      this.onQuote(decimalAt(buf, colon + 1, msgEnd - 1), this.arrivedMs);
      msgEnd = nl;
    }
  }
}

/** The non-negative decimal number in buf[from, to) (digits with an optional '.'), without a string. */
function decimalAt(buf: Buffer, from: number, to: number): number {
  let whole = 0;
  let i = from;
  for (; i < to && buf[i] !== DOT; i++) whole = whole * 10 + (buf[i]! - ZERO);
  let fraction = 0;
  let scale = 1;
  for (i++; i < to; i++) { fraction = fraction * 10 + (buf[i]! - ZERO); scale *= 10; }
  return whole + fraction / scale;
}
