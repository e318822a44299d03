// A table is a name bound once to its key and value types. Each layer declares the tables it owns
// next to its records (`table<[string, number], AuditEntry>('audit')`) and opens them through the
// store, so the type of a table is stated in one place and no call site can read it as another.
// The store refuses a second, different declaration of a name already opened.
import type { Database } from 'lmdb';

/** The keys tables use: ordered-binary strings, numbers and arrays of them. */
export type Key = string | number | (string | number)[];

declare const bound: unique symbol;

export interface Table<K extends Key, V> {
  readonly name: string;
  /** Phantom: carries K and V; never set at run time. */
  readonly [bound]?: (key: K) => V;
}

export function table<K extends Key, V>(name: string): Table<K, V> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`table name ${JSON.stringify(name)} must be snake_case`);
  return Object.freeze({ name });
}

/** Opens each declared table once per environment; a name declared twice differently is a bug. */
export class TableRegistry {
  private readonly open = new Map<string, { readonly table: Table<Key, unknown>; readonly db: Database<unknown, Key> }>();

  constructor(private readonly openDb: (name: string) => Database<unknown, Key>) {}

  get<K extends Key, V>(t: Table<K, V>): Database<V, K> {
    let entry = this.open.get(t.name);
    if (entry === undefined) {
      entry = { table: t as Table<Key, unknown>, db: this.openDb(t.name) };
      this.open.set(t.name, entry);
    } else if (entry.table !== (t as Table<Key, unknown>)) {
      throw new Error(`table ${t.name} is declared twice`);
    }
    return entry.db as unknown as Database<V, K>;
  }
}
