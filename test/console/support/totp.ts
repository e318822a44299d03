// RFC 6238 TOTP for the tests, written from node:crypto alone (never the server's code): base32
// secret, HMAC-SHA1 over the 8-byte step counter, dynamic truncation, 6 digits, 30-second steps.
import { createHmac } from 'node:crypto';

export const STEP_MS = 30_000;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text.replace(/=+$/, '')) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error(`not base32: ${ch}`);
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function codeAt(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

export const stepNow = (): number => Math.floor(Date.now() / STEP_MS);

/** How long until the current step ends. */
export const msLeftInStep = (): number => STEP_MS - (Date.now() % STEP_MS);

/**
 * Fresh codes for one user, as an authenticator app's owner would type them: each from a step later
 * than the last one used (the server accepts a step once, and only the previous, current or next
 * one). Three codes are available at once (steps now−1, now, now+1); a fourth waits for the clock.
 */
export class TotpDevice {
  private lastStep = Number.NEGATIVE_INFINITY;

  constructor(readonly secret: string) {}

  async fresh(): Promise<string> {
    for (;;) {
      const now = stepNow();
      // The previous step is only safe while the current one has time left: it leaves the window
      // when the clock enters the next step.
      const oldest = msLeftInStep() > 3000 ? now - 1 : now;
      const step = Math.max(this.lastStep + 1, oldest);
      if (step <= now + 1) {
        this.lastStep = step;
        return codeAt(this.secret, step);
      }
      // Every code the server would take now is spent: the next one comes with the next step.
      await new Promise((resolve) => setTimeout(resolve, msLeftInStep() + 50));
    }
  }

  /** The step of the last code this device gave. */
  get last(): number { return this.lastStep; }

  /** Marks the steps up to `step` as spent (a code used outside this device). */
  spent(step: number): void { this.lastStep = Math.max(this.lastStep, step); }
}
