// RFC 6238 TOTP with the RFC's own SHA-1 test vectors (6-digit codes are the last six digits).
import { describe, expect, it } from 'vitest';
import { acceptedStep, base32Decode, hotp, TOTP_STEP_MS } from '../../src/base/totp.js';

// "12345678901234567890" in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP', () => {
  it('decodes base32', () => {
    expect(base32Decode(RFC_SECRET).toString()).toBe('12345678901234567890');
    expect(base32Decode('MZXW6YQ=').toString()).toBe('foob');
  });

  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_111_111_111, '050471'],
    [1_234_567_890, '005924'],
    [2_000_000_000, '279037'],
  ])('matches RFC 6238 at T=%i s', (seconds, code) => {
    expect(hotp(base32Decode(RFC_SECRET), Math.floor(seconds / 30))).toBe(code);
    expect(acceptedStep(RFC_SECRET, code, seconds * 1000, null)).toBe(Math.floor(seconds / 30));
  });

  it('accepts one step of drift either way, and a step only once', () => {
    const nowMs = 1_234_567_890_000;
    const step = Math.floor(nowMs / TOTP_STEP_MS);
    const key = base32Decode(RFC_SECRET);
    expect(acceptedStep(RFC_SECRET, hotp(key, step - 1), nowMs, null)).toBe(step - 1);
    expect(acceptedStep(RFC_SECRET, hotp(key, step + 1), nowMs, null)).toBe(step + 1);
    expect(acceptedStep(RFC_SECRET, hotp(key, step - 2), nowMs, null)).toBeNull();
    expect(acceptedStep(RFC_SECRET, hotp(key, step), nowMs, step)).toBeNull();
    expect(acceptedStep(RFC_SECRET, hotp(key, step), nowMs, step - 1)).toBe(step);
  });

  it('refuses codes that are not six digits', () => {
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 005924']) expect(acceptedStep(RFC_SECRET, bad, 1_234_567_890_000, null)).toBeNull();
  });
});
