// The console's single check of a user's TOTP codes (DECISIONS "Console": login, and the fresh code
// of key creation, key revocation and the kill switch reset). A code is good once: the step it
// belongs to must be later than the last step this user had accepted anywhere, so a code typed for
// the login cannot be replayed to create a key, and an overheard code is dead once used. The last
// step survives a restart (LMDB `totp_steps`).
import type { Clock } from '../market/clock.js';
import type { UserRecord } from '../store/records.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Store } from '../store/store.js';
import { table } from '../store/table.js';
import { acceptedStep } from '../util/totp.js';

/** user → the last TOTP time step accepted. */
export const TOTP_STEPS = table<string, number>('totp_steps');

export class TotpGuard {
  private readonly lastSteps = new Map<string, number>();

  constructor(private readonly store: Store, private readonly box: SecretBox, private readonly clock: Clock) {}

  /**
   * True when `code` is valid now and fresh for this user; the step is then spent before this
   * returns its promise (a second request racing with the same code is refused), and stored.
   */
  async consume(user: UserRecord, code: string): Promise<boolean> {
    const step = acceptedStep(this.box.open(user.sealedTotpSecret), code, this.clock.nowMs(), this.lastStep(user.id));
    if (step === null) return false;
    this.lastSteps.set(user.id, step);
    await this.db().put(user.id, step);
    return true;
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
