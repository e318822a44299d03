// Read-only views the FIX thread takes of the main LMDB environment (API keys) and the quote board.
// Keys are read per Logon and per re-check (the read snapshot renewed first), secrets unsealed
// with the service's master key: a key paused or revoked in the console takes effect at the next
// Logon or re-check. Orders are never read here: the shards answer for them.
import type { Quote } from '../engine/types.js';
import type { QuoteBoard } from '../market/quote-board.js';
import { KEYS } from '../store/records.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Store } from '../store/store.js';
import type { KeyDirectory, QuoteSource, UnsealedKey } from './app/ports.js';

export class StoreKeys implements KeyDirectory {
  constructor(private readonly store: Store, private readonly box: SecretBox) {}

  key(id: string): UnsealedKey | null {
    if (id === '') return null;
    this.store.root.resetReadTxn();
    const record = this.store.table(KEYS).get(id);
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
