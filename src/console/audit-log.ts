// The console's audit log (LMDB `audit`, by sequence number): every console action, allowed or
// refused, with who asked, when, from which address, what it touched and what changed. A second
// database (`audit_by_user`, [user, seq]) indexes each user's entries (those they made and those
// that touched their resources), so a user pages through their own without scanning everyone's. Details never hold secrets: the
// route handlers write what changed, and request bodies pass through `summary` first.
import type { Database } from 'lmdb';
import type { UnixMs } from '../engine/types.js';
import type { Store } from '../store/store.js';
import { table } from '../store/table.js';
import type { Logger } from '../base/log.js';


export interface AuditEntry {
  readonly seq: number;
  readonly at: string;
  /**
   * `operator`, `user:<id>`, `anonymous` (a login attempt, a call without credentials), or
   * `system` (the platform acting on its own: a dead-man's switch firing).
   */
  readonly actor: string;
  readonly ip: string;
  readonly action: string;
  readonly method: string;
  readonly path: string;
  /** The resource acted on (key id, webhook id, login, user), when there is one. */
  readonly target: string | null;
  /** The user whose resources the call touched; they see the entry in their own log. */
  readonly owner: string | null;
  readonly outcome: 'ok' | 'refused';
  readonly status: number;
  readonly error?: { readonly name: string; readonly message: string; readonly field?: string };
  /** What changed (or, when refused, what was asked for): never a secret. */
  readonly detail: Readonly<Record<string, unknown>> | null;
  readonly request_id: string;
}

const AUDIT = table<number, AuditEntry>('audit');
/** [user, seq] → 1: the entries each user sees. */
const AUDIT_BY_USER = table<[string, number], number>('audit_by_user');

export interface AuditPage { readonly data: readonly AuditEntry[]; readonly next_cursor: string | null }

/** Fields whose values are credentials: never written to the log. */
const SECRET_FIELDS = new Set(['password', 'totp', 'secret', 'csrf_token', 'token']);
const MAX_TEXT = 128;
const MAX_ITEMS = 32;
const MAX_DEPTH = 3;

function trimmed(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…(${value.length} chars)` : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => trimmed(v, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `…(${value.length} items)`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS)) {
    out[k.slice(0, MAX_TEXT)] = SECRET_FIELDS.has(k) ? '(not logged)' : trimmed(v, depth + 1);
  }
  return out;
}

/** A request body as the log keeps it: credentials replaced, long text and lists cut. */
export function summary(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return trimmed(body, 0) as Record<string, unknown>;
}

export type NewAuditEntry = Omit<AuditEntry, 'seq' | 'at'> & { readonly atMs: UnixMs };

export class AuditLog {
  private seq: number;
  private readonly writes = new Set<Promise<unknown>>();

  constructor(private readonly store: Store, private readonly log: Logger) {
    const [last] = this.entries().getKeys({ reverse: true, limit: 1 });
    this.seq = typeof last === 'number' ? last : 0;
  }

  /**
   * Appends an entry. The answer does not wait for the disk (an audit write must not slow every
   * console call); `page` and `settled` do.
   */
  record(entry: NewAuditEntry): void {
    const { atMs, ...rest } = entry;
    const full: AuditEntry = { seq: ++this.seq, at: new Date(atMs).toISOString(), ...rest };
    const users = new Set<string>();
    if (full.owner !== null) users.add(full.owner);
    if (full.actor.startsWith('user:')) users.add(full.actor.slice('user:'.length));
    const write = this.store.root.transaction(() => {
      void this.entries().put(full.seq, full);
      for (const user of users) void this.byUser().put([user, full.seq], 1);
    });
    const done: Promise<unknown> = write.then(
      () => { this.writes.delete(done); },
      (err: unknown) => { this.writes.delete(done); this.log.error({ err, seq: full.seq }, 'audit entry not stored'); },
    );
    this.writes.add(done);
  }

  /** Newest first; `user` null for every entry. `before` is the previous page's next_cursor. */
  async page(user: string | null, before: number | null, limit: number): Promise<AuditPage> {
    await this.settled();
    const top = before === null ? Number.MAX_SAFE_INTEGER : before - 1;
    const seqs = user === null
      ? [...this.entries().getKeys({ start: top, end: 0, reverse: true, limit: limit + 1 })].map(Number)
      : [...this.byUser().getKeys({ start: [user, top], end: [user, 0], reverse: true, limit: limit + 1 })]
        .map((k) => Number((k as [string, number])[1]));
    const more = seqs.length > limit;
    const data = seqs.slice(0, limit).map((s) => this.entries().get(s)).filter((e): e is AuditEntry => e !== undefined);
    return { data, next_cursor: more ? String(data[data.length - 1]!.seq) : null };
  }

  async settled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  private entries(): Database<AuditEntry, number> { return this.store.table(AUDIT); }

  private byUser(): Database<number, [string, number]> { return this.store.table(AUDIT_BY_USER); }
}
