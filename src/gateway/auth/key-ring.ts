// The main thread's cache of API keys: secrets unsealed once at start (HMAC verification must not
// decrypt per request), whitelists parsed once. The console reloads a key after changing it.
import { KEYS, type KeyRecord } from '../../store/records.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { Store } from '../../store/store.js';
import { parseCidr, type Cidr } from '../../base/ip.js';

export interface LiveKey {
  readonly record: KeyRecord;
  readonly secret: Buffer;
  readonly whitelist: readonly Cidr[];
}

export class KeyRing {
  private readonly keys = new Map<string, LiveKey>();

  constructor(private readonly store: Store, private readonly box: SecretBox) {
    for (const { value } of this.db().getRange()) this.keys.set(value.id, this.live(value));
  }

  get(id: string): LiveKey | undefined { return this.keys.get(id); }

  all(): IterableIterator<LiveKey> { return this.keys.values(); }

  /** Re-reads one key after the store changed it (pause, revoke, whitelist, kill switch). */
  reload(id: string): LiveKey | undefined {
    const record = this.db().get(id);
    if (!record) { this.keys.delete(id); return undefined; }
    const key = this.live(record);
    this.keys.set(id, key);
    return key;
  }

  private db() { return this.store.table(KEYS); }

  private live(record: KeyRecord): LiveKey {
    const whitelist = record.ipWhitelist.map((text) => {
      const cidr = parseCidr(text);
      if (!cidr) throw new Error(`key ${record.id} has an invalid whitelist entry ${JSON.stringify(text)}`);
      return cidr;
    });
    return { record, secret: Buffer.from(this.box.open(record.sealedSecret), 'utf8'), whitelist };
  }
}
