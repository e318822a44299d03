// The main thread's cache of signal webhooks: secrets unsealed once (a signal must not decrypt per
// request) and their digests precomputed for the constant-time check. Every change goes to LMDB
// first and is durable (`flushed`) before the cache shows it, so what a caller was told survives a
// crash.
import { createHash } from 'node:crypto';
import { WEBHOOKS, type WebhookRecord } from '../../store/records.js';
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
  /** Every change goes through this queue. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly store: Store, private readonly box: SecretBox) {
    for (const { value } of this.db().getRange()) this.hooks.set(value.id, this.live(value));
  }

  get(id: string): LiveWebhook | undefined { return this.hooks.get(id); }

  /** Re-reads one webhook after another writer changed it (a cluster node, src/cluster/shared-tables.ts). */
  reload(id: string): void {
    const record = this.db().get(id);
    if (record === undefined) this.hooks.delete(id);
    else this.hooks.set(id, this.live(record));
  }

  /** Every webhook, by id. */
  all(): LiveWebhook[] {
    return [...this.hooks.values()].sort((a, b) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
  }

  ofUser(user: string): LiveWebhook[] { return this.all().filter((h) => h.record.user === user); }

  /** Stores a new webhook with its secret sealed; resolves once it is durable. */
  create(record: Omit<WebhookRecord, 'sealedSecret'>, secret: string): Promise<LiveWebhook> {
    return this.serial(async () => {
      const full: WebhookRecord = { ...record, sealedSecret: this.box.seal(secret) };
      await this.db().put(full.id, full);
      await this.store.flushed();
      const live = this.live(full);
      this.hooks.set(full.id, live);
      return live;
    });
  }

  /** Pauses or resumes; undefined for an unknown id. Durable before it resolves. */
  setPaused(id: string, paused: boolean): Promise<LiveWebhook | undefined> {
    return this.serial(async () => {
      const hook = this.hooks.get(id);
      if (hook === undefined) return undefined;
      if (hook.record.paused === paused) return hook;
      const [changed] = await this.writePaused([id], paused);
      return changed;
    });
  }

  /** Pauses every webhook of `user` in one durable write; returns the ids that were running. */
  pauseAllOf(user: string): Promise<string[]> {
    return this.serial(async () => {
      const running = this.ofUser(user).filter((h) => !h.record.paused).map((h) => h.record.id);
      await this.writePaused(running, true);
      return running;
    });
  }

  /**
   * Changes a webhook's symbols and targets, or its secret (the console's edit and rotation);
   * undefined for an unknown id. Durable before it resolves; the pause flag is left as it is.
   */
  update(id: string, change: { readonly symbols?: WebhookRecord['symbols']; readonly targets?: WebhookRecord['targets']; readonly secret?: string }): Promise<LiveWebhook | undefined> {
    return this.serial(async () => {
      const hook = this.hooks.get(id);
      if (hook === undefined) return undefined;
      const { secret, ...routing } = change;
      const record: WebhookRecord = { ...hook.record, ...routing, ...(secret === undefined ? {} : { sealedSecret: this.box.seal(secret) }) };
      await this.db().put(id, record);
      await this.store.flushed();
      const live = this.live(record);
      this.hooks.set(id, live);
      return live;
    });
  }

  /** Reads the cache at write time: writes run one at a time, so none undoes another (a kill switch pause above all). */
  private async writePaused(ids: readonly string[], paused: boolean): Promise<LiveWebhook[]> {
    if (ids.length === 0) return [];
    const records = ids.map((id) => ({ ...this.hooks.get(id)!.record, paused }));
    await this.store.root.transaction(() => { for (const r of records) void this.db().put(r.id, r); });
    await this.store.flushed();
    return records.map((r) => {
      const live = { ...this.hooks.get(r.id)!, record: r };
      this.hooks.set(r.id, live);
      return live;
    });
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.then(work);
    this.tail = result.then(() => undefined, () => undefined);
    return result;
  }

  private db() { return this.store.table(WEBHOOKS); }

  private live(record: WebhookRecord): LiveWebhook {
    const secret = Buffer.from(this.box.open(record.sealedSecret), 'utf8');
    return { record, secret, secretDigest: sha256(secret) };
  }
}
