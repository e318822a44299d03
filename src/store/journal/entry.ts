// The shard journal: every command that changed state, with the time it was applied at, in the
// order the shard applied it. Replaying it through a fresh engine rebuilds the shard's state
// (the engine is deterministic). Ticks that changed nothing are not journaled one by one; the
// latest quote of each symbol ticked since the previous entry is journaled just before the next
// command, which is all a replay needs to fill at the same prices.
import type { Command, UnixMs } from '../../engine/types.js';

export interface JournalEntry { readonly nowMs: UnixMs; readonly cmd: Command }
