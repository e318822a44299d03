// Dead-man's switch firings in the console's audit log: a shard reports every firing (a deadline
// that passed, also one passed while the service was down and fired at start, or a connection that
// asked for it dropping), and each becomes one entry by the `system` actor, owned by the account's
// user so they see it in their own log, naming the key and what it cancelled and closed.
import type { DeadManFiredResult } from '../engine/types.js';
import type { ShardClient } from '../shard/client.js';
import type { ReadModel } from '../shard/read-model.js';
import type { AuditLog } from './audit-log.js';

export function auditDeadMen(client: ShardClient, audit: AuditLog, readModel: ReadModel, nowMs: () => number): void {
  client.listen({
    deadMan: (fired: DeadManFiredResult, shard: number) => {
      audit.record({
        atMs: nowMs(), actor: 'system', ip: '', action: 'dead_man.fire', method: 'SHARD', path: `/shard/${shard}/dead-man/${fired.cause}`,
        target: fired.keyId, owner: readModel.account(fired.login)?.user ?? null, outcome: 'ok', status: 200,
        detail: {
          login: fired.login, key_id: fired.keyId, cause: fired.cause,
          cancelled: fired.cancelled.map((o) => o.id),
          closed: fired.closed.map((c) => c.ticket),
          failed: fired.failed.map((f) => ({ ticket: f.ticket, error: f.reject.name })),
        },
        request_id: `dead-man-${fired.login}-${fired.keyId}`,
      });
    },
  });
}
