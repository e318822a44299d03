// The upgrade to a stream connection (DECISIONS "Authentication"): `key`, `ts` and `sig` in the
// query, the signature being the REST rule for GET /v1 (no query, empty body), so the signed
// string does not depend on the query that carries it. Every refusal happens before the upgrade,
// as the HTTP status and error body REST would give: 401 for the credentials, 403 without the
// read scope or outside the key's IP whitelist, 429 for a key's connection past the limit. A
// failed authentication is charged to the address's anonymous bucket, the one REST charges its
// own failures to, and answered 429 once that is empty (with its X-RateLimit headers, as REST).
import type { HttpRequest, HttpResponse, us_socket_context_t } from 'uWebSockets.js';
import { clientIp } from '../auth/client-ip.js';
import { authenticate } from '../auth/verify.js';
import type { LiveKey } from '../auth/key-ring.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { Exchange, serve, type Headers } from '../http.js';
import type { Session } from './connection.js';

const EMPTY_BODY = Buffer.alloc(0);
/** The signed path of every stream connection, whatever its query (DECISIONS). */
export const STREAM_PATH = '/v1';

/** Open connections per key. */
export class ConnectionCounter {
  private readonly counts = new Map<string, number>();

  tryAcquire(keyId: string, max: number): boolean {
    const n = this.counts.get(keyId) ?? 0;
    if (n >= max) return false;
    this.counts.set(keyId, n + 1);
    return true;
  }

  release(keyId: string): void {
    const n = (this.counts.get(keyId) ?? 0) - 1;
    if (n > 0) this.counts.set(keyId, n);
    else this.counts.delete(keyId);
  }
}

type UpgradeDeps = Pick<GatewayContext, 'auth' | 'clock' | 'trustedProxies' | 'config' | 'log' | 'limits'>;

export function upgradeHandler(ctx: UpgradeDeps, counter: ConnectionCounter) {
  const max = ctx.config.stream.max_connections_per_key;
  return (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    const ex = Exchange.open(res, req);
    if (!ex) return;
    // The request object is valid only now: read everything first.
    const keyId = req.getQuery('key') ?? '';
    const timestamp = req.getQuery('ts') ?? '';
    const signature = req.getQuery('sig') ?? '';
    const wsKey = req.getHeader('sec-websocket-key');
    const wsProtocol = req.getHeader('sec-websocket-protocol');
    const wsExtensions = req.getHeader('sec-websocket-extensions');
    const ip = clientIp(ex.remoteAddress(), req.getHeader('x-forwarded-for'), ctx.trustedProxies);
    let limitHeaders: Headers = [];
    serve(ex, (err) => ctx.log.error({ err, request_id: ex.requestId }, 'stream upgrade failed'), () => {
      const nowMs = ctx.clock.nowMs();
      let key: LiveKey;
      try {
        if (keyId === '' || timestamp === '' || signature === '') {
          throw new ApiError('unauthorized', 'the stream URL needs the query parameters key, ts and sig');
        }
        key = authenticate(ctx.auth, { keyId, timestamp, signature, method: 'GET', url: STREAM_PATH, body: EMPTY_BODY, ip }, nowMs);
      } catch (err) {
        const answer = ctx.limits.unauthenticated(ip, nowMs, err);
        limitHeaders = answer.verdict.headers;
        throw answer.error;
      }
      if (!key.record.scopes.includes('read')) throw new ApiError('forbidden', 'the stream needs a key with the read scope');
      if (!counter.tryAcquire(key.record.id, max)) {
        throw new ApiError('rate_limited', `a key may hold at most ${max} stream connections`, { headers: [['retry-after', '1']] });
      }
      const session: Session = { keyId: key.record.id, login: key.record.login, ip, requestId: ex.requestId, conn: null };
      res.upgrade(session, wsKey, wsProtocol, wsExtensions, context);
    }, () => limitHeaders);
  };
}
