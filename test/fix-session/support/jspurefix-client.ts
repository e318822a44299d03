// A real third-party FIX engine as the initiator: jspurefix (npm) over TLS 1.3, with the stock
// QuickFIX FIX44 dictionary ("qf44"). Its certificate handling needs care (reference §7): PEMs go
// through nodeTlsConnectionOptions, never its package-relative file paths. Every message it
// receives is also checked against the stock FIX44 dictionary; its Logout text is kept, since a
// refused Logon ends jspurefix's session with a transport error rather than a result.
import 'reflect-metadata';
import {
  AsciiSession, DITokens, EmptyLogFactory, type FixEntity, type IJsFixConfig, type ISessionDescription, type MsgView, SessionContainer,
} from 'jspurefix';
import { validateFix44 } from '../../fix/support/qf-validator.js';

export interface Received {
  readonly msgType: string;
  readonly object: Record<string, unknown>;
}

export interface ClientOptions {
  readonly port: number;
  readonly ca: string;
  readonly sender: string;
  readonly username: string;
  readonly password: string;
}

type Waiter = { readonly match: (m: Received) => boolean; readonly resolve: (m: Received) => void };

class TestSession extends AsciiSession {
  readonly received: Received[] = [];
  readonly rawTypes: string[] = [];
  readonly dictionaryErrors: string[] = [];
  logoutText: string | null = null;
  private waiters: Waiter[] = [];
  private readyResolve: (() => void) | null = null;
  readonly ready: Promise<void>;

  constructor(config: IJsFixConfig) {
    super(config);
    this.ready = new Promise((resolve) => { this.readyResolve = resolve; });
  }

  sendMessage(msgType: string, body: Record<string, unknown>): void {
    this.send(msgType, body);
  }

  /** Cuts the connection without a Logout (a crash, a network failure); resolves once the socket is closed. */
  dropConnection(): Promise<void> {
    const duplex = this.transport?.duplex;
    if (duplex === undefined) return Promise.resolve();
    const closed = new Promise<void>((resolve) => duplex.readable.once('close', () => resolve()));
    duplex.destroy();
    return closed;
  }

  next(match: (m: Received) => boolean, timeoutMs = 10_000): Promise<Received> {
    const seen = this.received.findIndex(match);
    if (seen >= 0) return Promise.resolve(this.received.splice(seen, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message in ${timeoutMs} ms; got ${this.rawTypes.join(',')}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  protected onApplicationMsg(msgType: string, view: MsgView): void {
    const m: Received = { msgType, object: view.toObject() as Record<string, unknown> };
    const i = this.waiters.findIndex((w) => w.match(m));
    if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
    else this.received.push(m);
  }

  /** jspurefix hands the decoded message over with '|' for SOH (no value of ours holds a '|'). */
  protected onDecoded(msgType: string, txt: string): void {
    this.rawTypes.push(msgType);
    const errors = validateFix44(Buffer.from(txt.replaceAll('|', '\x01'), 'latin1'));
    if (errors.length > 0) this.dictionaryErrors.push(`${txt}: ${errors.join('; ')}`);
    if (msgType === '5') this.logoutText = /\|58=([^|]*)\|/.exec(txt)?.[1] ?? '';
  }

  protected onEncoded(): void {}

  protected onReady(): void {
    this.readyResolve?.();
  }

  protected onStopped(): void {}

  protected onLogon(): boolean {
    return true;
  }
}

export interface JspurefixClient {
  readonly session: TestSession;
  /** Settles when the session ends: resolves after a Logout handshake, rejects when the connection dropped. */
  readonly ended: Promise<unknown>;
  send(msgType: string, body: Record<string, unknown>): void;
  next(msgType: string, where?: (o: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  logout(): Promise<void>;
  /** Drops the connection without a Logout; resolves once the socket is closed. */
  drop(): Promise<void>;
}

export async function connectJspurefix(o: ClientOptions): Promise<JspurefixClient> {
  const sc = new SessionContainer();
  sc.registerGlobal(new EmptyLogFactory());
  const description = {
    application: {
      type: 'initiator', name: `test-${o.sender}`, protocol: 'ascii', dictionary: 'qf44', reconnectSeconds: 0,
      tcp: { host: '127.0.0.1', port: o.port, tls: { nodeTlsConnectionOptions: { ca: [o.ca], minVersion: 'TLSv1.3', rejectUnauthorized: true } } },
    },
    Username: o.username, Password: o.password, EncryptMethod: 0, ResetSeqNumFlag: true, HeartBtInt: 30,
    SenderCompId: o.sender, TargetCompID: 'TASGW', BeginString: 'FIX.4.4', BodyLengthChars: 7,
  } as unknown as ISessionDescription;
  const container = await sc.makeSystem(description);
  const session = new TestSession(container.resolve<IJsFixConfig>(DITokens.IJsFixConfig));
  container.registerInstance(DITokens.FixSession, session);
  const ended = container.resolve<FixEntity & { start(): Promise<unknown> }>(DITokens.FixEntity).start();
  ended.catch(() => undefined);
  const refused = (): never => { throw new LogonRefused(session.logoutText); };
  await Promise.race([session.ready, ended.then(refused, refused)]);
  return {
    session,
    ended,
    send: (msgType, body) => session.sendMessage(msgType, body),
    next: async (msgType, where = () => true, timeoutMs) => (await session.next((m) => m.msgType === msgType && where(m.object), timeoutMs)).object,
    logout: async () => {
      session.done();
      await ended;
    },
    drop: () => session.dropConnection(),
  };
}

export class LogonRefused extends Error {
  constructor(readonly text: string | null) { super(`logon refused: ${text}`); }
}

/** Connects and expects a refusal: resolves with the Text (58) of the gateway's Logout. */
export async function refusedLogon(o: ClientOptions): Promise<string | null> {
  let client: JspurefixClient;
  try {
    client = await connectJspurefix(o);
  } catch (err) {
    if (err instanceof LogonRefused) return err.text;
    throw err;
  }
  await client.logout();
  throw new Error('logon was accepted');
}
