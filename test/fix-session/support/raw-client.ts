// A bare TLS client for the real server: sends whatever bytes a test wants (garbage included) and
// collects what comes back as FIX messages, with awaitable arrivals and close.
import tls from 'node:tls';
import { Msg, SOH } from './harness.js';

export class RawClient {
  readonly messages: Msg[] = [];
  readonly closed: Promise<void>;
  private pending = '';
  private waiters: { match: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];

  private constructor(readonly socket: tls.TLSSocket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  static connect(port: number, ca: string, options: tls.ConnectionOptions = {}): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, ca: [ca], ...options }, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer | string): void {
    this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  next(match: (m: Msg) => boolean = () => true, timeoutMs = 10_000): Promise<Msg> {
    const i = this.messages.findIndex(match);
    if (i >= 0) return Promise.resolve(this.messages.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms: ${this.messages.map(String).join(' / ')}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  end(): Promise<void> {
    this.socket.end();
    return this.closed;
  }

  private onData(chunk: Buffer): void {
    this.pending += chunk.toString('latin1');
    for (;;) {
      const trailer = this.pending.indexOf(`${SOH}10=`);
      if (trailer < 0) return;
      const end = this.pending.indexOf(SOH, trailer + 4);
      if (end < 0) return;
      const m = new Msg(this.pending.slice(0, end + 1));
      this.pending = this.pending.slice(end + 1);
      const w = this.waiters.findIndex((x) => x.match(m));
      if (w >= 0) this.waiters.splice(w, 1)[0]!.resolve(m);
      else this.messages.push(m);
    }
  }
}
