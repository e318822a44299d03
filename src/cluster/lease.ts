// A lease in the leases bucket: a key whose bucket TTL is the lease. Claiming creates the key
// (refused while another holder's value lives), renewing updates it at the revision this holder
// wrote last (refused once anyone else wrote it), releasing deletes it at that revision. The
// holder trusts its lease only until `lease_ms` after it last sent a renewal that then succeeded,
// less a margin for clock rate and the server's expiry timer: past that it acts as if it had none,
// even before the server agrees, so two holders never both believe they hold it.
import type { KV } from '@nats-io/kv';
import { isWrongSequence } from './nats.js';

/** The part of a lease a holder gives up early: the server's expiry may run a little ahead. */
const SAFETY_FRACTION = 0.2;

export type Claim = { readonly t: 'held' } | { readonly t: 'taken'; readonly holder: string } | { readonly t: 'free' };

export class Lease {
  private revision = 0;
  private trustedUntilMs = 0;

  constructor(
    private readonly kv: KV,
    readonly key: string,
    private readonly holder: string,
    private readonly leaseMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Held and not yet past the safe part of the lease. */
  get held(): boolean { return this.revision !== 0 && this.clock() < this.trustedUntilMs; }

  /** Who holds it now (as the bucket says). */
  async holderNow(): Promise<string | null> {
    const e = await this.kv.get(this.key);
    return e === null || e.operation !== 'PUT' ? null : e.string();
  }

  /** Takes the lease if nobody holds it; 'taken' names who does. */
  async claim(): Promise<Claim> {
    const sentMs = this.clock();
    try {
      this.revision = await this.kv.create(this.key, this.holder);
    } catch {
      const holder = await this.holderNow();
      return holder === null ? { t: 'free' } : { t: 'taken', holder };
    }
    this.trust(sentMs);
    return { t: 'held' };
  }

  /**
   * Extends the lease. Refused (someone else wrote it) ends it at once; a failure to reach the
   * bucket keeps it until it runs out. `held` says whether it is still held.
   */
  async renew(): Promise<{ readonly held: boolean; readonly error: Error | null }> {
    if (this.revision === 0) return { held: false, error: null };
    const sentMs = this.clock();
    try {
      this.revision = await this.kv.update(this.key, this.holder, this.revision);
    } catch (err) {
      if (isWrongSequence(err)) this.revision = 0;
      return { held: this.held, error: err as Error };
    }
    this.trust(sentMs);
    return { held: true, error: null };
  }

  /** Gives the lease up at once (a clean stop), unless someone else already wrote it. */
  async release(): Promise<void> {
    const revision = this.revision;
    this.revision = 0;
    if (revision === 0) return;
    try {
      await this.kv.delete(this.key, { previousSeq: revision });
    } catch {
      // Taken over already, or the bucket is unreachable: it expires on its own.
    }
  }

  /** Forgets the lease without touching the bucket (it expires there). */
  drop(): void { this.revision = 0; }

  private trust(sentMs: number): void {
    this.trustedUntilMs = sentMs + this.leaseMs * (1 - SAFETY_FRACTION);
  }
}
