// RFC 6238 TOTP (30-second steps, 6 digits, HMAC-SHA1, as authenticator apps use it), for the
// console login and the "fresh TOTP code" of key creation, key revocation and the kill switch reset
// (DECISIONS "Kill switch", "Console"). A code is accepted in
// the step before, at or after the current one (clock drift) and only for a step later than the
// last one accepted, so an overheard code cannot be replayed.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { UnixMs } from '../engine/types.js';

export const TOTP_STEP_MS = 30_000;
const DIGITS = 6;
const DRIFT_STEPS = 1;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (padding optional); the fixture validator guarantees the alphabet. */
export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.replace(/=+$/, '')) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new RangeError('not base32');
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP of one counter value. */
export function hotp(key: Buffer, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** DIGITS;
  return String(code).padStart(DIGITS, '0');
}

/** The step of the window around `nowMs` (previous, current, next) whose code `code` is; null when none. */
export function matchedStep(secretBase32: string, code: string, nowMs: UnixMs): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretBase32);
  const now = Math.floor(nowMs / TOTP_STEP_MS);
  let found: number | null = null;
  // Every candidate is computed and compared, so the time taken does not depend on which matched.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code)) && found === null) found = step;
  }
  return found;
}

/** The step a code belongs to, when it is valid now and newer than `lastStep`; otherwise null. */
export function acceptedStep(secretBase32: string, code: string, nowMs: UnixMs, lastStep: number | null): number | null {
  const found = matchedStep(secretBase32, code, nowMs);
  return found !== null && (lastStep === null || found > lastStep) ? found : null;
}
