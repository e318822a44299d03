// Steady order load for the cluster tests: lanes of operator orders with client ids through
// chosen nodes. An answer that is not an acknowledgement (503 while a shard changes owner, a node
// gone) is retried with the same client id, so a retry can never fill twice: it is acknowledged
// (200) or answered 409 with the original order, which counts as acknowledged.
import type { RunningServer } from '../support/server.js';
import { marketOrder, operatorPost, type Acked } from '../durability/support.js';

export interface AckedAt extends Acked { readonly sentAtMs: number; readonly ackedAtMs: number; readonly clientId: string }

export interface ClusterLoad {
  readonly acked: Map<string, AckedAt>;
  /** Answers that were neither 200 nor 409, by status (0: no answer). */
  readonly refused: Map<number, number>;
  readonly done: Promise<void>;
  stop(): void;
}

const RETRY_DELAY_MS = 50;

export function clusterLoad(via: () => readonly RunningServer[], logins: readonly string[], prefix: string, lanes = 4): ClusterLoad {
  const acked = new Map<string, AckedAt>();
  const refused = new Map<number, number>();
  let n = 0;
  let stopped = false;
  const lane = async (k: number): Promise<void> => {
    let retry: { clientId: string; login: string } | null = null;
    while (!stopped) {
      const order: { clientId: string; login: string } = retry ?? { clientId: `${prefix}${n}`, login: logins[n++ % logins.length]! };
      const nodes = via();
      const node = nodes[(k + n) % nodes.length]!;
      const sentAtMs = performance.now();
      let status = 0;
      let body: (Acked & { order?: Acked }) | null = null;
      try {
        const res = await operatorPost(node, '/console/api/orders', marketOrder(order.login, order.clientId));
        status = res.status;
        body = await res.json() as Acked & { order?: Acked };
      } catch {
        // The node died under the request.
      }
      const original = status === 200 ? body : status === 409 ? body?.order ?? null : null;
      if (original === null) {
        refused.set(status, (refused.get(status) ?? 0) + 1);
        retry = order;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        continue;
      }
      retry = null;
      acked.set(order.clientId, { ...original, clientId: order.clientId, sentAtMs, ackedAtMs: performance.now() });
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, (_, k) => lane(k))).then(() => undefined);
  return { acked, refused, done, stop: () => { stopped = true; } };
}

/**
 * Resolves once `cond()` holds, running `probe` (a request that may make it hold) between checks,
 * or waiting a moment when there is none; rejects after `timeoutMs`.
 */
export async function until(what: string, cond: () => boolean, timeoutMs: number, probe?: () => Promise<void>): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (probe !== undefined) await probe();
    if (cond()) return;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    if (probe === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
