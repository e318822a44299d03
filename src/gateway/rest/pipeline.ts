// One REST request, in the order the spec's rules need it:
//   1. headers captured while uWS's request object is valid; the raw body read for POST/DELETE
//      (bodies over http.max_body_bytes are bad_request);
//   2. authentication (signature over the raw body, window, replay, key status, IP whitelist);
//      a failure is charged to the client address's anonymous bucket, never to the named key;
//   3. scope (403), then the rate limit of the call's class (429 + Retry-After);
//   4. the route's handler; its reply or error goes out with the X-RateLimit headers of the bucket
//      that applied, and the key's statistics record the outcome and latency.
// GETs run synchronously inside the uWS handler: no promise, no thread hop.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { LiveKey } from '../auth/key-ring.js';
import { clientIp } from '../auth/client-ip.js';
import { authenticate } from '../auth/verify.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { Exchange, serve, type Headers } from '../http.js';
import { rateLimited, type LimitVerdict, type RestLimiter } from '../limits/rest-limiter.js';
import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { KeyStatsBook } from '../stats/key-stats-book.js';
import { echo, endpointOf, isTrade, type RestReply, type RestRoute } from './route.js';

type UwsHandler = (res: HttpResponse, req: HttpRequest) => void;

interface Captured {
  readonly keyId: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly contentType: string;
  /**
   * The address whitelists and anonymous limits apply to (X-Forwarded-For only from trusted
   * proxies). Looked up on first use: uWS asks the kernel (getpeername) on every call, which
   * costs more than the rest of a GET, and most calls need no address.
   */
  readonly ip: () => string;
  readonly params: readonly string[];
}

const EMPTY_BODY = Buffer.alloc(0);
const NO_PARAMS: readonly string[] = [];

/** How the metrics name answers of paths no route claims. */
const UNKNOWN_ENDPOINT = 'unknown';

function sendReply(ex: Exchange, r: RestReply, headers: Headers | undefined): void {
  if (r.json !== undefined) ex.send(r.status, r.json, 'application/json', headers);
  else ex.json(r.status, r.body, headers);
}

const elapsedUs = (ex: Exchange): number => Number(process.hrtime.bigint() - ex.startedNs) / 1000;

export class RestPipeline {
  constructor(
    private readonly ctx: GatewayContext,
    private readonly limiter: RestLimiter,
    private readonly stats: KeyStatsBook,
    private readonly metrics: ServiceMetrics,
  ) {}

  handler(route: RestRoute): UwsHandler {
    const endpoint = endpointOf(route);
    const paramCount = route.pattern.split(':').length - 1;
    const withBody = isTrade(route.method);
    const maxBodyBytes = this.ctx.config.http.max_body_bytes;
    return (res, req) => {
      const ex = this.exchange(res, req, endpoint);
      if (!ex) return;
      const c = this.capture(ex, req, paramCount, withBody);
      // GETs are signed over an empty body; a request lacking a credential needs no body to be refused.
      if (!withBody || c.keyId === '' || c.timestamp === '' || c.signature === '') {
        this.run(route, endpoint, ex, c, EMPTY_BODY);
        return;
      }
      ex.readBody(maxBodyBytes).then(
        (body) => this.run(route, endpoint, ex, c, body),
        (err: unknown) => this.run(route, endpoint, ex, c, err instanceof ApiError ? err : new ApiError('bad_request', 'request body could not be read')),
      );
    };
  }

  /**
   * A route anyone may call (server time, the API documents): no credentials, charged to the
   * client address's anonymous bucket like every unauthenticated request.
   */
  publicRoute(endpoint: string, handle: (ex: Exchange) => RestReply): UwsHandler {
    return (res, req) => {
      const ex = this.exchange(res, req, endpoint);
      if (!ex) return;
      const verdict = this.limiter.anonymous(this.addressOf(ex, this.forwardedFor(req))(), this.ctx.clock.nowMs());
      serve(ex, (err) => this.ctx.log.error({ err, endpoint, request_id: ex.requestId }, 'REST route failed'), () => {
        if (!verdict.allowed) throw rateLimited(verdict, 'too many unauthenticated requests from this address');
        sendReply(ex, handle(ex), verdict.headers);
      }, () => verdict.headers);
    };
  }

  /** Every path and method no route claims: 404 in the error shape, limited per address. */
  unknownRoute(): UwsHandler {
    return this.publicRoute(UNKNOWN_ENDPOINT, (ex) => {
      throw new ApiError('not_found', `no route ${ex.method} ${echo(ex.path)}`);
    });
  }

  /** The exchange of one request, its answer reported to the metrics under `endpoint`; null when its framing is refused. */
  private exchange(res: HttpResponse, req: HttpRequest, endpoint: string): Exchange | null {
    const ex = Exchange.open(res, req);
    ex?.whenSent((status) => this.metrics.observeRequest(endpoint, status, ex.startedNs));
    return ex;
  }

  /** Each header read is a call into uWS: only the ones the route can use. */
  private capture(ex: Exchange, req: HttpRequest, paramCount: number, withBody: boolean): Captured {
    return {
      keyId: req.getHeader('x-svc-key'),
      timestamp: req.getHeader('x-svc-timestamp'),
      signature: req.getHeader('x-svc-signature'),
      contentType: withBody ? req.getHeader('content-type') : '',
      ip: this.addressOf(ex, this.forwardedFor(req)),
      params: paramCount === 0 ? NO_PARAMS : Array.from({ length: paramCount }, (_, i) => req.getParameter(i) ?? ''),
    };
  }

  /** X-Forwarded-For counts only from trusted proxies: without any, it is not even read. */
  private forwardedFor(req: HttpRequest): string {
    return this.ctx.trustedProxies.length === 0 ? '' : req.getHeader('x-forwarded-for');
  }

  /** Memoised; '' once the response is gone (uWS forbids touching it then). */
  private addressOf(ex: Exchange, forwardedFor: string): () => string {
    let ip: string | null = null;
    return () => {
      ip ??= ex.open ? clientIp(ex.remoteAddress(), forwardedFor, this.ctx.trustedProxies) : '';
      return ip;
    };
  }

  private run(route: RestRoute, endpoint: string, ex: Exchange, c: Captured, body: Buffer | ApiError): void {
    const { ctx, limiter } = this;
    const nowMs = ctx.clock.nowMs();
    const known = c.keyId === '' ? undefined : ctx.auth.keys.get(c.keyId);
    // Requests naming an existing key count for it, refused ones included (the console's error rate).
    const stats = known ? this.stats.of(known.record.id, nowMs) : null;
    let verdict: LimitVerdict | null = null;

    const finish = (errorName: string | null): void => { stats?.record(endpoint, errorName, elapsedUs(ex)); };
    const failed = (err: unknown): never => {
      finish(err instanceof ApiError ? err.errorName : 'internal_error');
      throw err;
    };
    const reply = (r: RestReply): void => {
      sendReply(ex, r, verdict?.headers);
      finish(null);
    };

    const work = (): Promise<void> | void => {
      let key: LiveKey;
      try {
        if (body instanceof ApiError) throw body;
        // The address matters to authentication only for a key with a whitelist.
        const ip = known !== undefined && known.whitelist.length > 0 ? c.ip() : '';
        key = authenticate(ctx.auth, {
          keyId: c.keyId, timestamp: c.timestamp, signature: c.signature, method: ex.method, url: ex.url, body, ip,
        }, nowMs);
      } catch (err) {
        const answer = limiter.unauthenticated(c.ip(), nowMs, err);
        verdict = answer.verdict;
        throw answer.error;
      }
      const { id, login, rateLimit, scopes } = key.record;
      const trade = isTrade(route.method);
      const limit = (take: boolean): LimitVerdict => (trade ? limiter.trade(login, nowMs, take) : limiter.read(id, rateLimit, nowMs, take));
      if (!scopes.includes(route.scope)) {
        verdict = limit(false);
        throw new ApiError('forbidden', `key ${id} lacks the ${route.scope} scope`);
      }
      verdict = limit(true);
      if (!verdict.allowed) {
        throw rateLimited(verdict, trade ? `trade limit of account ${login} exceeded` : `read limit of key ${id} exceeded`);
      }
      stats?.used(nowMs, c.ip);
      const out = route.handle({ key, login, params: c.params, query: ex.query, body: body instanceof Buffer ? body : EMPTY_BODY, contentType: c.contentType });
      if (out instanceof Promise) return out.then(reply);
      reply(out);
    };

    serve(ex, (err) => ctx.log.error({ err, endpoint, request_id: ex.requestId }, 'REST route failed'), () => {
      try {
        return work()?.catch(failed);
      } catch (err) {
        return failed(err);
      }
    }, () => verdict?.headers ?? []);
  }
}
