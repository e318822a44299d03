// Request authentication (spec "Authentication", DECISIONS "Authentication"): HMAC-SHA256 with the
// key's secret over timestamp + method + path-with-query + raw body, hex in either case, compared
// in constant time; timestamp within 5 s of server time; replays of POST/DELETE refused; key
// status and whitelist enforced. REST headers and the WebSocket query carry the same three values.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { keyStatus } from '../../store/records.js';
import { ipMatches } from '../../base/ip.js';
import { ApiError } from '../errors.js';
import type { KeyRing, LiveKey } from './key-ring.js';
import type { ReplayGuard, ReplayVerdict } from './replay-guard.js';
import type { UnixMs } from '../../engine/types.js';

export const TIMESTAMP_WINDOW_MS = 5000;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const DIGITS = /^\d{1,16}$/;

export interface SignedRequest {
  readonly keyId: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly method: string;
  /** Path with query string exactly as sent. */
  readonly url: string;
  readonly body: Buffer;
  /** Address the whitelist applies to (see clientIp). */
  readonly ip: string;
}

export interface Authenticator {
  readonly keys: KeyRing;
  readonly replays: ReplayGuard;
}

export function signatureOf(secret: Buffer, timestamp: string, method: string, url: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(timestamp).update(method).update(url).update(body).digest();
}

/** Why a key may not be used now (unknown, revoked, paused, expired), or null when it may. */
export function keyRefusal(key: LiveKey | undefined, nowMs: UnixMs): string | null {
  if (!key || key.record.revokedAt !== null) return 'unknown or revoked key';
  const status = keyStatus(key.record, nowMs);
  if (status === 'Paused') return 'key is paused';
  if (status === 'Expired') return 'key has expired';
  return null;
}

function replayRefusal(guard: ReplayGuard, verdict: ReplayVerdict): string | null {
  switch (verdict) {
    case 'accepted': return null;
    case 'replayed': return 'signature already used (replay)';
    case 'fenced':
      return `timestamp is before ${guard.fenceMs}: the service restarted after an unclean stop and cannot tell which earlier `
        + `signatures it accepted; sign with a timestamp at or after ${guard.fenceMs} (Unix ms)`;
    case 'closed': return 'the service is stopping; retry once it is back';
  }
}

/** The key that signed the request, or the 401/403 the spec names. Scopes are the route's check. */
export function authenticate(auth: Authenticator, req: SignedRequest, nowMs: UnixMs): LiveKey {
  if (req.keyId === '' || req.timestamp === '' || req.signature === '') {
    throw new ApiError('unauthorized', 'X-SVC-KEY, X-SVC-TIMESTAMP and X-SVC-SIGNATURE are required');
  }
  const key = auth.keys.get(req.keyId);
  const refusal = keyRefusal(key, nowMs);
  if (refusal !== null || !key) throw new ApiError('unauthorized', refusal ?? 'unknown or revoked key');
  if (!DIGITS.test(req.timestamp)) throw new ApiError('unauthorized', 'timestamp must be Unix milliseconds');
  const timestampMs = Number(req.timestamp);
  if (Math.abs(nowMs - timestampMs) > TIMESTAMP_WINDOW_MS) {
    // The field tells clients the refusal is their clock (they can correct it from GET /v1/time).
    throw new ApiError('unauthorized', `timestamp is more than ${TIMESTAMP_WINDOW_MS} ms from server time (${nowMs})`, { field: 'X-SVC-TIMESTAMP' });
  }
  if (!HEX_SHA256.test(req.signature)) throw new ApiError('unauthorized', 'signature must be 64 hex digits');
  const expected = signatureOf(key.secret, req.timestamp, req.method, req.url, req.body);
  if (!timingSafeEqual(expected, Buffer.from(req.signature, 'hex'))) throw new ApiError('unauthorized', 'bad signature');
  if (req.method === 'POST' || req.method === 'DELETE') {
    const refusal = replayRefusal(auth.replays, auth.replays.accept(req.signature.toLowerCase(), timestampMs, nowMs));
    if (refusal !== null) throw new ApiError('unauthorized', refusal);
  }
  if (key.whitelist.length > 0 && !ipMatches(req.ip, key.whitelist)) {
    throw new ApiError('forbidden', `address ${req.ip} is not on the key's IP whitelist`);
  }
  return key;
}
