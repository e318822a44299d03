// The webhook secret check (spec "Authentication" 6, DECISIONS "Authentication"): the body field
// `secret`, or `X-Svc-Signature = hex(HMAC-SHA256(secret, raw body))`. Both comparisons are between
// 32-byte values with timingSafeEqual, and a malformed credential is compared against a stand-in of
// the same length, so the time taken says nothing about how much of a guess was right.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { sha256, type LiveWebhook } from './webhook-book.js';

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const STAND_IN = Buffer.alloc(32);

export function signatureMatches(hook: LiveWebhook, hex: string, rawBody: Buffer): boolean {
  const expected = createHmac('sha256', hook.secret).update(rawBody).digest();
  const wellFormed = HEX_SHA256.test(hex);
  const given = wellFormed ? Buffer.from(hex, 'hex') : STAND_IN;
  return timingSafeEqual(expected, given) && wellFormed;
}

export function secretMatches(hook: LiveWebhook, secret: string): boolean {
  return timingSafeEqual(hook.secretDigest, sha256(secret));
}
