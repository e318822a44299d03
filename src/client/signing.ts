// Request signing (spec "Authentication"; DECISIONS): hex HMAC-SHA256 with the key secret over
// timestamp + method + path-with-query + raw body. The stream signs the REST rule for `GET /v1`
// (no query, empty body) and carries key, ts and sig in its URL's query.
import { createHmac } from 'node:crypto';

export function sign(secret: string, timestampMs: number, method: string, pathWithQuery: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestampMs}${method}${pathWithQuery}${body}`).digest('hex');
}

/** The three authentication headers of a REST request. */
export function authHeaders(keyId: string, secret: string, timestampMs: number, method: string, pathWithQuery: string, body: string): Record<string, string> {
  return {
    'x-svc-key': keyId,
    'x-svc-timestamp': String(timestampMs),
    'x-svc-signature': sign(secret, timestampMs, method, pathWithQuery, body),
  };
}

/** The stream's signed string never includes the query that carries the signature. */
const STREAM_SIGNED_PATH = '/v1';

/** `url` (ws://host:port/v1 or wss://…) with key, ts and sig for a connection made at `timestampMs`. */
export function signedStreamUrl(url: string, keyId: string, secret: string, timestampMs: number): string {
  const u = new URL(url);
  u.searchParams.set('key', keyId);
  u.searchParams.set('ts', String(timestampMs));
  u.searchParams.set('sig', sign(secret, timestampMs, 'GET', STREAM_SIGNED_PATH, ''));
  return u.toString();
}
