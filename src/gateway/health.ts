// GET /health. DECISIONS: 200 `{"status":"ok"}` once every listener and shard is up. While a
// shard's journal cannot make orders durable, orders are refused, and so is the health check (503,
// naming the shards). Failing checkpoints refuse nothing, so the answer stays 200, but says
// `degraded`: the journal then grows until one succeeds, and a restart replays all of it.
import type { CheckpointHealth, JournalHealth } from '../shard/protocol.js';
import { iso } from './wire.js';

export interface ShardHealth {
  journalHealth(): readonly JournalHealth[];
  checkpointHealth(): readonly CheckpointHealth[];
}

const CHECKPOINTS_FAILING = 'checkpoints are failing: orders stay durable in the journal, which keeps everything since the last durable checkpoint';

export function healthAnswer(ready: boolean, shards: ShardHealth): { readonly status: number; readonly body: object } {
  if (!ready) return { status: 503, body: { status: 'starting' } };
  const journals = shards.journalHealth().flatMap((journal, shard) => journal.state === 'ok' ? [] : [{ shard, ...journal }]);
  if (journals.length > 0) return { status: 503, body: { status: 'journal_unavailable', journals } };
  const checkpoints = shards.checkpointHealth().flatMap((c, shard) => c.state === 'ok' ? [] : [{
    shard, failed_in_a_row: c.failedInARow, since: iso(c.sinceMs), message: CHECKPOINTS_FAILING,
  }]);
  if (checkpoints.length > 0) return { status: 200, body: { status: 'degraded', checkpoints } };
  return { status: 200, body: { status: 'ok' } };
}
