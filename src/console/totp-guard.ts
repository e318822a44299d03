// The console's single check of a user's TOTP codes (DECISIONS "Console": login, and the fresh code
// of key creation, key revocation and the kill switch reset). A code is good once: the step it
// belongs to must be later than the last step this user had accepted anywhere, so a code typed for
// the login cannot be replayed to create a key, and an overheard code is dead once used. The last
// step survives a restart (LMDB `totp_steps`). A refused code says whether it was wrong or already
// used, and for a used one how long until the authenticator shows a fresh code.
import type { Clock } from '../base/clock.js';
import type { UserRecord } from '../store/records.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Store } from '../store/store.js';
import { table } from '../store/table.js';
import { matchedStep, TOTP_STEP_MS } from '../base/totp.js';

/** user → the last TOTP time step accepted. */
export const TOTP_STEPS = table<string, number>('totp_steps');

export type TotpCheck =
  | { readonly ok: true; readonly step: number }
  | { readonly ok: false; readonly reason: 'wrong' }
  /** The code was right but its step is spent; the next fresh code appears in `nextCodeInMs`. */
  | { readonly ok: false; readonly reason: 'used'; readonly nextCodeInMs: number };

export class TotpGuard {
  private readonly lastSteps = new Map<string, number>();

  constructor(private readonly store: Store, private readonly box: SecretBox, private readonly clock: Clock) {}

  /**
   * Accepts `code` when it is valid now and fresh for this user; the step is then spent before this
   * returns its promise (a second request racing with the same code is refused), and stored.
   */
  async consume(user: UserRecord, code: string): Promise<TotpCheck> {
    const nowMs = this.clock.nowMs();
    const step = matchedStep(this.box.open(user.sealedTotpSecret), code, nowMs);
    if (step === null) return { ok: false, reason: 'wrong' };
    const last = this.lastStep(user.id);
    if (last !== null && step <= last) return { ok: false, reason: 'used', nextCodeInMs: Math.max(0, (last + 1) * TOTP_STEP_MS - nowMs) };
    await this.spendThrough(user.id, step);
    return { ok: true, step };
  }

  /** Checks a code of a secret not yet stored (an enrolment being confirmed); null when wrong. */
  stepOf(secretBase32: string, code: string): number | null {
    return matchedStep(secretBase32, code, this.clock.nowMs());
  }

  /** Marks every step up to `step` spent for the user (a new secret's confirming code works once, too). */
  async spendThrough(user: string, step: number): Promise<void> {
    const last = Math.max(step, this.lastStep(user) ?? step);
    this.lastSteps.set(user, last);
    await this.db().put(user, last);
  }

  private lastStep(user: string): number | null {
    let step = this.lastSteps.get(user);
    if (step === undefined) {
      const stored = this.db().get(user);
      if (stored === undefined) return null;
      step = stored;
      this.lastSteps.set(user, step);
    }
    return step;
  }

  private db() { return this.store.table(TOTP_STEPS); }
}

/** What a refused code tells its user. */
export function totpRefusal(check: Exclude<TotpCheck, { ok: true }>): string {
  if (check.reason === 'wrong') return 'TOTP code is wrong or expired';
  const seconds = Math.max(1, Math.ceil(check.nextCodeInMs / 1000));
  return `TOTP code already used (each code works once): wait for the next code of your authenticator app, in ${seconds} s`;
}
