// The replay guard across restarts, in the main LMDB environment (db `replay_guard`, one record):
// `serving` from the moment a process may accept a signature, durable before it does; the live
// signatures once it stopped cleanly. A start that finds `serving` knows the last process died
// without handing its memory over and fences (replay-guard.ts); one that finds nothing is the
// first on this data dir.
import type { Store } from '../../store/store.js';
import { table } from '../../store/table.js';
import { ReplayGuard, type Remembered } from './replay-guard.js';
import type { UnixMs } from '../../engine/types.js';

const KEY = 'state';

type GuardRecord =
  | { readonly state: 'serving'; readonly sinceMs: number }
  | { readonly state: 'stopped'; readonly atMs: number; readonly signatures: Remembered };

export type PreviousStop = 'none' | 'clean' | 'unclean';

export interface OpenedGuard {
  readonly guard: ReplayGuard;
  readonly previous: PreviousStop;
}

const REPLAY_GUARD = table<string, GuardRecord>('replay_guard');
const db = (store: Store) => store.table(REPLAY_GUARD);

/** The guard for a process starting now; resolves once `serving` is on disk. */
export async function openReplayGuard(store: Store, windowMs: number, nowMs: UnixMs): Promise<OpenedGuard> {
  const last = db(store).get(KEY);
  const previous: PreviousStop = last === undefined ? 'none' : last.state === 'stopped' ? 'clean' : 'unclean';
  const guard = previous === 'unclean'
    ? new ReplayGuard(windowMs, nowMs + windowMs)
    : new ReplayGuard(windowMs, 0, last?.state === 'stopped' ? last.signatures.filter(([, expiresMs]) => expiresMs >= nowMs) : []);
  await db(store).put(KEY, { state: 'serving', sinceMs: nowMs });
  await store.flushed();
  return { guard, previous };
}

/** Closes the guard (later requests are refused) and hands what it remembers to the next start. */
export async function saveReplayGuard(store: Store, guard: ReplayGuard, nowMs: UnixMs): Promise<void> {
  await db(store).put(KEY, { state: 'stopped', atMs: nowMs, signatures: guard.close(nowMs) });
  await store.flushed();
}
