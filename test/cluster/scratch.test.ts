import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTasCluster, type TasCluster } from '../support/cluster.js';
import { marketOrder, operatorPost, PUSHED_PRICES } from '../durability/support.js';

describe('scratch', () => {
  let c: TasCluster;
  beforeAll(async () => { c = await startTasCluster({ config: PUSHED_PRICES }); }, 60_000);
  afterAll(async () => { await c?.stop(); });
  it('orders', async () => {
    for (const [i, n] of c.nodes.entries()) {
      for (const login of ['100001', '100002', '100003']) {
        const t0 = performance.now();
        const res = await operatorPost(n, '/console/api/orders', marketOrder(login, `c-${i}-${login}`));
        const body = await res.json();
        console.log(i, login, res.status, JSON.stringify(body), (performance.now() - t0).toFixed(1));
        expect(res.status).toBe(200);
      }
    }
  });
});
