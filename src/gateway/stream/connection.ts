// One stream connection's outgoing side. Every message produced while handling one input (a
// client op, a shard batch, a timer) is queued and leaves as ONE frame of `\n`-separated objects at
// the end of that turn (DECISIONS: frames hold one or more JSON objects). Quotes bypass the queue:
// they reach the socket through uWS topics (see quotes.ts).
//
// Backpressure: uWS buffers what the kernel does not take. Nothing queued here is ever dropped;
// a connection whose buffer passes stream.max_buffer_bytes is closed with 1008 instead
// (DECISIONS "Slow consumers"), and it resumes from its last `seq` on a new connection.
import type { WebSocket } from 'uWebSockets.js';
import type { Logger } from '../../base/log.js';
import { TokenBucket } from '../../base/token-bucket.js';
import type { UnixMs } from '../../engine/types.js';

/** WebSocket close code for policy violations (RFC 6455): the buffer limit, abuse. */
export const CLOSE_POLICY = 1008;
/** uWS `send` result when the message passed maxBackpressure and was not queued. */
const SEND_DROPPED = 2;

/** uWS user data: who the upgrade authenticated, and the connection once it is open. */
export interface Session {
  readonly keyId: string;
  /** The account the key is bound to: the only login this connection may subscribe to. */
  readonly login: string;
  readonly ip: string;
  readonly requestId: string;
  conn: StreamConnection | null;
}

/** Runs every queued connection's flush once, after the current turn's synchronous work. */
export class FlushQueue {
  private readonly dirty = new Set<StreamConnection>();
  private scheduled = false;

  add(conn: StreamConnection): void {
    this.dirty.add(conn);
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.run());
  }

  private run(): void {
    this.scheduled = false;
    for (const conn of this.dirty) {
      try {
        conn.flush();
      } catch (err) {
        // A bug, never the client's doing; the other connections still get their frames.
        conn.log.error({ err }, 'stream flush failed');
      }
    }
    this.dirty.clear();
  }
}

export interface ConnectionLimits {
  readonly maxBufferBytes: number;
  readonly opsPerSecond: number;
  readonly opsBurst: number;
}

let nextConnectionId = 0;

export class StreamConnection {
  readonly id = ++nextConnectionId;
  /** Client ops allowed per second (each op costs one token). */
  readonly ops: TokenBucket;
  readonly log: Logger;
  private pending: string[] = [];
  private pendingBytes = 0;
  private open = true;

  constructor(
    readonly ws: WebSocket<Session>,
    readonly session: Session,
    private readonly queue: FlushQueue,
    private readonly limits: ConnectionLimits,
    nowMs: UnixMs,
    log: Logger,
  ) {
    this.ops = new TokenBucket(limits.opsPerSecond, limits.opsBurst, nowMs);
    this.log = log.child({ stream: this.id, key: session.keyId, request_id: session.requestId });
  }

  get isOpen(): boolean { return this.open; }

  /** Queues one message; it leaves with the others of this turn, in order. */
  push(text: string): void {
    if (!this.open) return;
    this.pending.push(text);
    this.pendingBytes += text.length;
    this.queue.add(this);
  }

  flush(): void {
    if (!this.open || this.pending.length === 0) return;
    const frame = this.pending.length === 1 ? this.pending[0]! : this.pending.join('\n');
    this.pending = [];
    this.pendingBytes = 0;
    const status = this.ws.send(frame, false, false);
    const buffered = this.ws.getBufferedAmount();
    if (status === SEND_DROPPED || buffered > this.limits.maxBufferBytes) this.overflow(buffered);
  }

  /** Takes a token of the op budget for work done on the client's behalf: 0, or the ms until there is one. */
  charge(nowMs: UnixMs): number {
    return this.ops.take(nowMs) ? 0 : Math.max(1, this.ops.waitMs(nowMs));
  }

  /** Bytes not yet taken by the kernel: uWS's buffer plus this turn's queue (UTF-16 units ≈ bytes of ASCII JSON). */
  bufferedBytes(): number {
    return this.open ? this.ws.getBufferedAmount() + this.pendingBytes : 0;
  }

  /** The buffer passed the hard limit: close (the client resumes with since_seq elsewhere). */
  overflow(bufferedBytes: number): void {
    if (!this.open) return;
    this.log.warn({ bufferedBytes, limit: this.limits.maxBufferBytes }, 'stream consumer too slow: closed');
    this.end(CLOSE_POLICY, `slow consumer: send buffer passed ${this.limits.maxBufferBytes} bytes`);
  }

  /** Closes with a close frame; uWS runs the close handler (and so the cleanup) synchronously. */
  end(code: number, reason: string): void {
    if (!this.open) return;
    this.open = false;
    this.pending = [];
    this.ws.end(code, reason);
  }

  /** The socket is gone (uWS close handler): nothing may touch it any more. */
  markClosed(): void {
    this.open = false;
    this.pending = [];
  }
}
