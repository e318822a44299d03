// The main thread's cache of signal webhooks: secrets unsealed once (a signal must not decrypt per
// request) and their digests precomputed for the constant-time check. Every change goes to LMDB
// first and is durable (`flushed`) before the cache shows it, so what a caller was told survives a
// crash.
import { createHash } from 'node:crypto';
import type { WebhookRecord } from '../../store/records.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { Store } from '../../store/store.js';

export interface LiveWebhook {
  readonly record: WebhookRecord;
  /** The secret as the HMAC key of `X-Svc-Signature`. */
  readonly secret: Buffer;
  /** SHA-256 of the secret: body secrets are compared digest to digest (equal lengths, constant time). */
  readonly secretDigest: Buffer;
}

export const sha256 = (data: string | Buffer): Buffer => createHash('sha256').update(data).digest();

export class WebhookBook {
  private readonly hooks = new Map<string, LiveWebhook>();

  constructor(private readonly store: Store, private readonly box: SecretBox) {
    for (const { value } of this.db().getRange()) this.hooks.set(value.id, this.live(value));
  }

  get(id: string): LiveWebhook | undefined { return this.hooks.get(id); }

  /** Every webhook, by id. */
  all(): LiveWebhook[] {
    return [...this.hooks.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
  }

  ofUser(user: string): LiveWebhook[] { return this.all().filter((h) => h.record.user === user); }

  /** Stores a new webhook with its secret sealed; resolves once it is durable. */
  async create(record: Omit<WebhookRecord, 'sealedSecret'>, secret: string): Promise<LiveWebhook> {
    const full: WebhookRecord = { ...record, sealedSecret: this.box.seal(secret) };
    await this.db().put(full.id, full);
    await this.store.flushed();
    const live = this.live(full);
    this.hooks.set(full.id, live);
    return live;
  }

  /** Pauses or resumes; undefined for an unknown id. Durable before it resolves. */
  async setPaused(id: string, paused: boolean): Promise<LiveWebhook | undefined> {
    const hook = this.hooks.get(id);
    if (hook === undefined) return undefined;
    if (hook.record.paused === paused) return hook;
    const [changed] = await this.writePaused([hook], paused);
    return changed;
  }

  /** Pauses every webhook of `user` in one durable write; returns the ids that were running. */
  async pauseAllOf(user: string): Promise<string[]> {
    const running = this.ofUser(user).filter((h) => !h.record.paused);
    await this.writePaused(running, true);
    return running.map((h) => h.record.id);
  }

  private async writePaused(hooks: readonly LiveWebhook[], paused: boolean): Promise<LiveWebhook[]> {
    if (hooks.length === 0) return [];
    const records = hooks.map((h) => ({ ...h.record, paused }));
    await this.store.root.transaction(() => { for (const r of records) void this.db().put(r.id, r); });
    await this.store.flushed();
    return records.map((r) => {
      const live = { ...this.hooks.get(r.id)!, record: r };
      this.hooks.set(r.id, live);
      return live;
    });
  }

  private db() { return this.store.db<WebhookRecord>('webhooks'); }

  private live(record: WebhookRecord): LiveWebhook {
    const secret = Buffer.from(this.box.open(record.sealedSecret), 'utf8');
    return { record, secret, secretDigest: sha256(secret) };
  }
}
