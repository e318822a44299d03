// The webhook credential: body secret or X-Svc-Signature = hex(HMAC-SHA256(secret, raw body)).
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretMatches, signatureMatches } from '../../src/gateway/webhooks/signal-auth.js';
import type { LiveWebhook } from '../../src/gateway/webhooks/webhook-book.js';

const SECRET = 'wh-secret-0123456789abcdef';
const hook: LiveWebhook = {
  record: { id: 'wh1', user: 'u1', sealedSecret: 'unused', symbols: ['EURUSD'], targets: [], paused: false, createdAt: 0 },
  secret: Buffer.from(SECRET),
  secretDigest: createHash('sha256').update(SECRET).digest(),
};
const body = Buffer.from('{"action":"buy","symbol":"EURUSD"}');
const sig = createHmac('sha256', SECRET).update(body).digest('hex');

describe('webhook credentials', () => {
  it('accepts the secret and nothing near it', () => {
    expect(secretMatches(hook, SECRET)).toBe(true);
    expect(secretMatches(hook, SECRET.slice(0, -1))).toBe(false);
    expect(secretMatches(hook, `${SECRET}x`)).toBe(false);
    expect(secretMatches(hook, '')).toBe(false);
  });

  it('accepts the HMAC of the raw body in either hex case', () => {
    expect(signatureMatches(hook, sig, body)).toBe(true);
    expect(signatureMatches(hook, sig.toUpperCase(), body)).toBe(true);
    expect(signatureMatches(hook, sig, Buffer.from(`${body.toString()} `))).toBe(false);
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    expect(signatureMatches(hook, flipped, body)).toBe(false);
  });

  it('refuses malformed signatures without throwing', () => {
    for (const bad of ['', 'zz', sig.slice(0, 62), `${sig}00`, 'g'.repeat(64), '0'.repeat(64)]) {
      expect(signatureMatches(hook, bad, body)).toBe(false);
    }
  });
});
