// A REST client for the tests that signs with node:crypto itself (never with the server's code):
// hex(HMAC-SHA256(secret, timestamp + method + path-with-query + body)).
import { createHmac } from 'node:crypto';
import http from 'node:http';
import { checkHttpAnswer, isDocumentedPath } from '../../support/api-contract.js';

export interface Credentials { readonly id: string; readonly secret: string }

export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON under test; each test asserts its shape
  readonly body: any;
}

export interface SendOptions {
  readonly body?: string;
  /** Default application/json when a body is sent; null sends none. */
  readonly contentType?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
  /** Local address to connect from (127.0.0.2 acts as a trusted proxy in the tests). */
  readonly localAddress?: string;
}

export interface SignOptions extends SendOptions {
  readonly ts?: string;
  /** Replaces the computed signature. */
  readonly signature?: string;
  readonly upperHex?: boolean;
  /** Credential headers left out. */
  readonly omit?: readonly ('key' | 'ts' | 'sig')[];
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

export function hmacHex(secret: string, ts: string, method: string, path: string, body: string): string {
  return createHmac('sha256', secret).update(ts + method + path + body).digest('hex');
}

export function send(port: number, method: string, path: string, opts: SendOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers };
  const contentType = opts.contentType === undefined ? (opts.body === undefined ? null : 'application/json') : opts.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method, path, headers, localAddress: opts.localAddress,
      agent: opts.localAddress === undefined ? agent : undefined,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try { body = JSON.parse(text); } catch { body = null; }
        // Every answer of the documented API must match docs/api/openapi.json.
        try {
          if (isDocumentedPath(path.split('?')[0]!)) checkHttpAnswer(method, path, res.statusCode ?? 0, res.headers, text);
        } catch (err) {
          reject(err as Error);
          return;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export class RestClient {
  /** Identical calls in one millisecond would share a signature, and the second be a replay. */
  private lastTs = 0;

  constructor(readonly port: number, readonly cred: Credentials) {}

  call(method: string, path: string, opts: SignOptions = {}): Promise<Answer> {
    this.lastTs = Math.max(Date.now(), this.lastTs + 1);
    const ts = opts.ts ?? String(this.lastTs);
    const body = opts.body ?? '';
    let sig = opts.signature ?? hmacHex(this.cred.secret, ts, method, path, body);
    if (opts.upperHex) sig = sig.toUpperCase();
    const omit = new Set(opts.omit ?? []);
    const headers: Record<string, string> = { ...opts.headers };
    if (!omit.has('key')) headers['x-svc-key'] = this.cred.id;
    if (!omit.has('ts')) headers['x-svc-timestamp'] = ts;
    if (!omit.has('sig')) headers['x-svc-signature'] = sig;
    return send(this.port, method, path, { ...opts, headers });
  }

  get(path: string, opts: SignOptions = {}): Promise<Answer> { return this.call('GET', path, opts); }

  post(path: string, body: unknown, opts: SignOptions = {}): Promise<Answer> {
    return this.call('POST', path, { ...opts, body: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  patch(path: string, body: unknown, opts: SignOptions = {}): Promise<Answer> {
    return this.call('PATCH', path, { ...opts, body: typeof body === 'string' ? body : JSON.stringify(body) });
  }

  del(path: string, opts: SignOptions = {}): Promise<Answer> { return this.call('DELETE', path, opts); }
}

/** An operator call on the console listener. */
export function operator(port: number, token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  return send(port, method, path, {
    headers: { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
