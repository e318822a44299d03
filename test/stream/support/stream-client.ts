// A stream client for the tests built on the `ws` package (not uWebSockets.js), signing with
// node:crypto itself (never with the server's or the SDK's code), plus the operator and REST calls
// that make things happen on the server.
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { checkStreamMessage } from '../../support/api-contract.js';
import type { Credentials } from './seed.js';

export const hmacHex = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

export interface UrlOptions {
  readonly ts?: string;
  readonly sig?: string;
  readonly omit?: readonly ('key' | 'ts' | 'sig')[];
}

/** ws://127.0.0.1:port/v1?key&ts&sig with sig = hex(HMAC(secret, ts + "GET" + "/v1")). */
export function streamUrl(port: number, key: Credentials, opts: UrlOptions = {}): string {
  const ts = opts.ts ?? String(Date.now());
  const params = new URLSearchParams();
  if (!opts.omit?.includes('key')) params.set('key', key.id);
  if (!opts.omit?.includes('ts')) params.set('ts', ts);
  if (!opts.omit?.includes('sig')) params.set('sig', opts.sig ?? hmacHex(key.secret, `${ts}GET/v1`));
  return `ws://127.0.0.1:${port}/v1?${params.toString()}`;
}

export interface Refusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
  readonly body: any;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- stream JSON under test; each test asserts its shape
export type Msg = any;

/** A connection that records every message (frames split at `\n`) and lets a test await them. */
export class TestStream {
  readonly messages: Msg[] = [];
  /** Frames as received (to see batching). */
  readonly frames: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly taken = new Set<number>();
  private readonly waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data, isBinary) => {
      if (isBinary) throw new Error('the server sent a binary frame');
      const text = String(data);
      this.frames.push(text);
      for (const line of text.split('\n')) this.record(JSON.parse(line) as Msg);
    });
  }

  static open(url: string, opts: WebSocket.ClientOptions = {}): Promise<TestStream> {
    const ws = new WebSocket(url, { perMessageDeflate: false, ...opts });
    const stream = new TestStream(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(stream));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  static async connect(port: number, key: Credentials): Promise<TestStream> {
    return TestStream.open(streamUrl(port, key));
  }

  send(op: unknown): void {
    this.ws.send(typeof op === 'string' ? op : JSON.stringify(op));
  }

  /**
   * The first message matching `pred` that no earlier `take` returned, already received or still
   * to come.
   */
  take(pred: (m: Msg) => boolean, timeoutMs = 10_000): Promise<Msg> {
    for (let i = 0; i < this.messages.length; i++) {
      if (!this.taken.has(i) && pred(this.messages[i])) {
        this.taken.add(i);
        return Promise.resolve(this.messages[i]);
      }
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms; last: ${JSON.stringify(this.messages.slice(-5))}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  /**
   * The first message matching `pred`, whether or not a `take` returned it, already received or
   * still to come: for a state the stream reaches ("the event with this seq arrived"), where an
   * earlier `take` may have returned that very message.
   */
  seen(pred: (m: Msg) => boolean, timeoutMs = 10_000): Promise<Msg> {
    const found = this.messages.find(pred);
    return found === undefined ? this.take(pred, timeoutMs) : Promise.resolve(found);
  }

  /** Sends an op and resolves with its answer (ack, pong, a dead-man's switch answer or error echoing the id). */
  async request(op: Record<string, unknown>): Promise<Msg> {
    this.send(op);
    return this.take((m) => m.id === op['id'] && ['subscribed', 'unsubscribed', 'pong', 'error', 'cancel_all_after', 'cancel_on_disconnect'].includes(m.channel));
  }

  of(channel: string): Msg[] { return this.messages.filter((m) => m.channel === channel); }

  close(): Promise<{ code: number; reason: string }> {
    this.ws.close();
    return this.closed;
  }

  private record(m: Msg): void {
    // Every message must match its payload in docs/api/asyncapi.json; a mismatch fails the run.
    checkStreamMessage(m);
    const index = this.messages.push(m) - 1;
    const w = this.waiters.findIndex((x) => x.pred(m));
    if (w >= 0) {
      this.taken.add(index);
      this.waiters.splice(w, 1)[0]!.resolve(m);
    }
  }
}

/** The HTTP answer to an upgrade the server refuses. */
export function refusal(url: string, opts: WebSocket.ClientOptions = {}): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, opts);
    ws.once('open', () => { ws.close(); reject(new Error('the upgrade was accepted')); });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    ws.once('error', () => undefined);
  });
}

export interface Caller { readonly console: string; readonly adminToken: string; readonly http: string }

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test
async function json(res: Response): Promise<{ status: number; body: any }> {
  return { status: res.status, body: await res.json() };
}

export async function pushQuote(server: Caller, symbol: string, bid: number, ask: number): Promise<void> {
  const res = await fetch(`${server.console}/console/api/quotes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ symbol, bid, ask }),
  });
  if (res.status !== 200) throw new Error(`push failed: ${res.status} ${await res.text()}`);
}

/** An order through the console's operator route (no rate limit: bursts of fills). */
export async function operatorOrder(server: Caller, order: Record<string, unknown>) {
  return json(await fetch(`${server.console}/console/api/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ source: 'manual', type: 'market', ...order }),
  }));
}

/** A signed REST call. */
export async function rest(server: Caller, key: Credentials, method: string, path: string, body?: unknown) {
  const ts = String(Date.now());
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = {
    'x-svc-key': key.id, 'x-svc-timestamp': ts, 'x-svc-signature': hmacHex(key.secret, `${ts}${method}/v1${path}${text}`),
  };
  if (text) headers['content-type'] = 'application/json';
  return json(await fetch(`${server.http}/v1${path}`, { method, headers, ...(text ? { body: text } : {}) }));
}
