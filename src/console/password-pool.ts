// Password checks off the main loop (the console login): scrypt in a piscina worker. One thread, as
// the machine has two cores and the shards need them; a bounded queue, so a flood of logins is
// refused (429) instead of piling up. The thread is started on the first login and stops when idle.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ApiError } from '../gateway/errors.js';
import type { VerifyTask } from './password-worker.js';

const MAX_QUEUED = 32;
const IDLE_MS = 60_000;

export class PasswordPool {
  private readonly pool = new Piscina<VerifyTask, boolean>({
    filename: fileURLToPath(new URL('./password-worker.js', import.meta.url)),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_MS,
    maxQueue: MAX_QUEUED,
  });
  /**
   * Checked in place of an unknown user's hash, in the stored format of src/util/password.ts with
   * its cost, so a login for a user that does not exist takes as long as one for a user that does.
   */
  private readonly decoy = ['scrypt', 16384, 8, 1, randomBytes(16).toString('base64'), randomBytes(32).toString('base64')].join('$');

  /** `stored` null: an unknown user (always false, after the same work). */
  async verify(password: string, stored: string | null): Promise<boolean> {
    if (this.pool.queueSize >= MAX_QUEUED) {
      throw new ApiError('rate_limited', 'too many logins at once; try again in a second', { headers: [['retry-after', '1']] });
    }
    const ok = await this.pool.run({ password, stored: stored ?? this.decoy });
    return ok && stored !== null;
  }

  close(): Promise<void> { return this.pool.destroy(); }
}
