// The one guard of every console JSON route (DECISIONS "Console"). A route says who may call it:
// `operator` (the bearer admin token only), `member` (the operator, or a logged-in user limited
// to their own accounts, keys, webhooks and kill switch; the route's scope checks do that), or
// `public` (the login). The guard authenticates, refuses cross-site changes (request-guard.ts),
// reads the JSON body, runs the route and writes the audit entry: every call that changes or
// tries to change something, and every refused call, reads included.
import type { TemplatedApp } from 'uWebSockets.js';
import { clientIp } from '../gateway/auth/client-ip.js';
import type { GatewayContext } from '../gateway/context.js';
import { ApiError } from '../gateway/errors.js';
import { Exchange, parseJsonObject, serve, type Headers } from '../gateway/http.js';
import { ipMatches } from '../base/ip.js';
import { actorName, ANONYMOUS, type Actor, type Scoped } from './actor.js';
import { summary, type AuditLog } from './audit-log.js';
import type { Lockout } from './lockout.js';
import { authenticateConsoleCall, checkSameOrigin, type Access, type GuardHeaders } from './request-guard.js';
import type { SessionStore } from './sessions.js';
import type { TotpGuard } from './totp-guard.js';
import type { UnixMs } from '../engine/types.js';

export interface ConsoleDeps extends GatewayContext {
  readonly adminToken: string;
  readonly sessions: SessionStore;
  readonly audit: AuditLog;
  readonly totp: TotpGuard;
  readonly lockout: Lockout;
}

export type Method = 'get' | 'post' | 'put' | 'del';

export interface RouteSpec {
  readonly method: Method;
  /** uWS pattern, e.g. `/console/api/keys/:id/pause`. */
  readonly path: string;
  readonly access: Access;
  /** `optional`: a call without a body is handled as `{}`; a body that is sent must be JSON. */
  readonly body: 'none' | 'optional' | 'required';
  /** The audit log's name of the action, e.g. `key.create`. */
  readonly action: string;
}

const HTTP_METHOD: Readonly<Record<Method, string>> = { get: 'GET', post: 'POST', put: 'PUT', del: 'DELETE' };

/** One console request on its way through its route. */
export class ConsoleCall implements Scoped {
  actor: Actor = ANONYMOUS;
  body: Readonly<Record<string, unknown>> = {};
  owner: string | null = null;
  target: string | null;
  /** What changed, for the audit entry (the request summary is used when unset). */
  detail: Record<string, unknown> | null = null;
  status = 0;

  constructor(
    readonly ex: Exchange,
    readonly params: readonly string[],
    readonly ip: string,
    readonly nowMs: UnixMs,
    /** The browser reached the console over https (through a trusted proxy): cookies are Secure. */
    readonly https: boolean,
  ) {
    this.target = params[0] ?? null;
  }

  reply(status: number, body: unknown, headers: Headers = []): void {
    this.status = status;
    this.ex.json(status, body, headers);
  }

  /** The same with the body's JSON text made already. */
  replyJson(status: number, json: string): void {
    this.status = status;
    this.ex.send(status, json, 'application/json');
  }
}

export type ConsoleHandler = (call: ConsoleCall) => Promise<void> | void;

interface RawRequest extends GuardHeaders {
  readonly contentType: string;
  readonly forwardedFor: string;
  readonly forwardedHost: string;
  readonly forwardedProto: string;
  readonly peer: string;
}

export class ConsoleRouter {
  private readonly specs: RouteSpec[] = [];

  constructor(private readonly app: TemplatedApp, readonly deps: ConsoleDeps) {}

  /** Every route registered so far (GET /console/api/routes lists them). */
  get routes(): readonly RouteSpec[] { return this.specs; }

  route(spec: RouteSpec, handler: ConsoleHandler): void {
    this.specs.push(spec);
    const paramCount = spec.path.split('/').filter((part) => part.startsWith(':')).length;
    this.app[spec.method](spec.path, (res, req) => {
      const ex = Exchange.open(res, req);
      if (!ex) return;
      const raw: RawRequest = {
        authorization: req.getHeader('authorization'),
        cookie: req.getHeader('cookie'),
        origin: req.getHeader('origin'),
        host: req.getHeader('host'),
        secFetchSite: req.getHeader('sec-fetch-site'),
        csrfToken: req.getHeader('x-csrf-token'),
        contentType: req.getHeader('content-type'),
        forwardedFor: req.getHeader('x-forwarded-for'),
        forwardedHost: req.getHeader('x-forwarded-host'),
        forwardedProto: req.getHeader('x-forwarded-proto'),
        peer: ex.remoteAddress(),
      };
      const params = Array.from({ length: paramCount }, (_, i) => req.getParameter(i) ?? '');
      serve(ex, (err) => this.deps.log.error({ err, path: spec.path }, 'console route failed'), () => this.run(spec, handler, ex, raw, params));
    });
  }

  private async run(spec: RouteSpec, handler: ConsoleHandler, ex: Exchange, raw: RawRequest, params: readonly string[]): Promise<void> {
    const viaProxy = raw.peer !== '' && ipMatches(raw.peer, this.deps.trustedProxies);
    const call = new ConsoleCall(
      ex, params, clientIp(raw.peer, raw.forwardedFor, this.deps.trustedProxies), this.deps.clock.nowMs(),
      viaProxy && raw.forwardedProto === 'https',
    );
    const headers: GuardHeaders = viaProxy && raw.forwardedHost !== '' ? { ...raw, host: raw.forwardedHost } : raw;
    try {
      call.actor = authenticateConsoleCall(spec.access, headers, this.deps.adminToken, this.deps.sessions);
      if (spec.method !== 'get') checkSameOrigin(call.actor, headers);
      call.body = await this.readBody(spec, ex, raw.contentType);
      await handler(call);
      if (spec.method !== 'get') this.audit(spec, call, null);
    } catch (err) {
      this.audit(spec, call, err);
      throw err;
    }
  }

  private async readBody(spec: RouteSpec, ex: Exchange, contentType: string): Promise<Record<string, unknown>> {
    if (spec.body === 'none') return {};
    const raw = await ex.readBody(this.deps.config.http.max_body_bytes);
    if (raw.length === 0 && spec.body === 'optional') return {};
    if (!/^application\/json\b/i.test(contentType)) throw new ApiError('bad_request', 'content-type must be application/json');
    return parseJsonObject(raw);
  }

  private audit(spec: RouteSpec, call: ConsoleCall, err: unknown): void {
    const refused = err !== null;
    const status = err instanceof ApiError ? err.status : refused ? 500 : call.status;
    const error = err instanceof ApiError
      ? { name: err.errorName, message: err.message, ...(err.field === undefined ? {} : { field: err.field }) }
      : refused ? { name: 'internal_error', message: 'internal error' } : undefined;
    this.deps.audit.record({
      atMs: call.nowMs,
      actor: actorName(call.actor),
      ip: call.ip,
      action: spec.action,
      method: HTTP_METHOD[spec.method],
      path: call.ex.path.slice(0, 256),
      target: call.target === null ? null : call.target.slice(0, 128),
      owner: call.owner,
      outcome: refused ? 'refused' : 'ok',
      status,
      ...(error === undefined ? {} : { error }),
      detail: call.detail ?? (Object.keys(call.body).length === 0 ? null : summary(call.body)),
      request_id: call.ex.requestId,
    });
  }
}
