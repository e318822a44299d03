import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTasCluster, type TasCluster } from '../support/cluster.js';
import { marketOrder, operatorPost } from '../durability/support.js';
import { LOGIN, OTHER_LOGIN, EUR_LOGIN, STREAM_CONFIG, streamSeed } from '../stream/support/seed.js';

describe('scratch', () => {
  let c: TasCluster;
  beforeAll(async () => { c = await startTasCluster({ config: STREAM_CONFIG, seed: streamSeed() }); }, 60_000);
  afterAll(async () => { await c?.stop(); });
  it('reads', async () => {
    for (const [i, n] of c.nodes.entries()) {
      for (const login of [LOGIN, OTHER_LOGIN, EUR_LOGIN]) {
        const res = await operatorPost(n, '/console/api/orders', marketOrder(login, `x-${i}-${login}`));
        console.log("ORDER", i, login, res.status, (await res.text()).slice(0, 200));
      }
    }
    for (const [i, n] of c.nodes.entries()) for (const l of n.logs) if (l.level >= 40 || /owned|owner|pric/.test(l.msg)) console.log('LOG', i, JSON.stringify(l).slice(0, 400));
  });
});
