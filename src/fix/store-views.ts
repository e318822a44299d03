// Read-only views the FIX thread takes of the shared LMDB environment and the quote board. LMDB
// readers are lock-free and see every committed transaction; a reply from a shard is sent after
// its commit, so an order it names is readable here (the read snapshot is renewed before lookups
// that must see it). Keys are read per Logon and per re-check, secrets unsealed with the service's
// master key: a key paused or revoked in the console takes effect at the next Logon or re-check.
import type { OrderRecord, Quote } from '../engine/types.js';
import type { QuoteBoard } from '../market/quote-board.js';
import type { KeyRecord } from '../store/records.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Store } from '../store/store.js';
import type { KeyDirectory, OrderLookup, QuoteSource, UnsealedKey } from './app/ports.js';

const ORDER_ID = /^\d{1,15}$/;

export class StoreOrders implements OrderLookup {
  constructor(private readonly store: Store) {}

  orderIdOfClientId(login: string, clientId: string): string | null {
    const dbs = this.store.accountDbs(login);
    dbs.clientIds.resetReadTxn();
    return dbs.clientIds.get([login, clientId])?.orderId ?? null;
  }

  order(login: string, orderId: string): OrderRecord | null {
    if (!ORDER_ID.test(orderId)) return null;
    const dbs = this.store.accountDbs(login);
    dbs.orders.resetReadTxn();
    return dbs.orders.get([login, Number(orderId)]) ?? null;
  }
}

export class StoreKeys implements KeyDirectory {
  constructor(private readonly store: Store, private readonly box: SecretBox) {}

  key(id: string): UnsealedKey | null {
    if (id === '') return null;
    this.store.root.resetReadTxn();
    const record = this.store.db<KeyRecord>('keys').get(id);
    if (record === undefined) return null;
    return { record, secret: Buffer.from(this.box.open(record.sealedSecret), 'utf8') };
  }
}

export class BoardQuotes implements QuoteSource {
  constructor(private readonly board: QuoteBoard) {}

  quote(symbol: string): Quote | null {
    return this.board.read(symbol);
  }
}
