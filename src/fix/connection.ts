// One client connection: TLS socket bytes straight into the session (no setEncoding, Nagle off),
// the session's output back in one write per turn, and one timer armed at the session's next
// deadline. Whatever a session's handling throws ends that session with a Logout, never the
// thread. A client that stops reading is conflated first (quotes wait while more than
// BACKLOG_BYTES are unsent) and disconnected past MAX_UNSENT_BYTES.
import type { TLSSocket } from 'node:tls';
import { FixSession, type SessionHost } from './session/session.js';
import type { Transport } from './session/outbox.js';
import type { SessionConfig, SessionLog } from './session/types.js';

export const BACKLOG_BYTES = 256 * 1024;
export const MAX_UNSENT_BYTES = 16 * 1024 * 1024;
/** After our end of the connection, how long the client gets to close its end. */
const CLOSE_GRACE_MS = 1000;

export interface ConnectionHost extends SessionHost {
  /** Writes every session's pending output (end of a turn). */
  flush(): void;
}

export class Connection implements Transport {
  readonly session: FixSession;
  readonly remoteAddress: string;
  private timer: NodeJS.Timeout | null = null;
  private timerAtMs = Number.POSITIVE_INFINITY;
  private ended = false;

  constructor(private readonly socket: TLSSocket, config: SessionConfig, private readonly host: ConnectionHost, private readonly log: SessionLog,
    private readonly onClosed: (c: Connection) => void) {
    socket.setNoDelay(true);
    this.remoteAddress = socket.remoteAddress ?? '';
    this.session = new FixSession(config, host, this);
    socket.on('data', (chunk: Buffer) => this.turn(() => this.session.receive(chunk)));
    socket.on('drain', () => this.turn(() => this.session.writable()));
    socket.on('error', (err) => this.log.info({ remote: this.remoteAddress, err: err.message }, 'fix: connection error'));
    socket.on('close', () => this.closed());
    this.arm();
  }

  get backlogged(): boolean {
    return this.socket.writableLength > BACKLOG_BYTES;
  }

  write(bytes: Buffer): void {
    if (this.ended || this.socket.destroyed) return;
    this.socket.write(bytes);
    if (this.socket.writableLength > MAX_UNSENT_BYTES) {
      this.log.warn({ remote: this.remoteAddress, sender: this.session.senderCompId, unsent: this.socket.writableLength }, 'fix: client does not read, disconnecting');
      this.socket.destroy();
    }
  }

  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.disarm();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  private turn(run: () => void): void {
    try {
      run();
    } catch (err) {
      this.log.error({ err, remote: this.remoteAddress, sender: this.session.senderCompId }, 'fix: session failed, disconnecting it');
      this.session.abort('Internal error: the gateway could not process the last message');
    }
    this.host.flush();
    this.arm();
  }

  private arm(): void {
    if (this.ended) return;
    const deadline = this.session.nextDeadlineMs();
    if (!Number.isFinite(deadline) || (this.timer !== null && this.timerAtMs <= deadline)) return;
    this.disarm();
    this.timerAtMs = deadline;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAtMs = Number.POSITIVE_INFINITY;
      this.turn(() => this.session.onTimer());
    }, Math.max(0, deadline - this.host.nowMs()));
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.timerAtMs = Number.POSITIVE_INFINITY;
  }

  private closed(): void {
    this.ended = true;
    this.disarm();
    try {
      this.session.transportClosed();
    } catch (err) {
      this.log.error({ err, remote: this.remoteAddress }, 'fix: session end failed');
    }
    this.host.flush();
    this.onClosed(this);
  }
}
