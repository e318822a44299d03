// A tas node that starts while its NATS cluster cannot place a replicated stream yet (a JetStream
// peer offline, as when three servers have just started and two have elected the meta leader)
// waits for it and says so, instead of failing its start; it joins once the peer is back
// (src/cluster/node.ts, whileForming).
import { afterAll, describe, expect, it } from 'vitest';
import { journalStream } from '../../src/cluster/names.js';
import { startNatsCluster, type NatsCluster } from '../../src/cluster/nats-servers.js';
import { startServer, tempDir, type LogLine, type RunningServer } from '../support/server.js';

const FORMING = 'cluster: the NATS cluster is still forming; retrying';

describe('a tas node whose NATS cluster is still forming', () => {
  let nats: NatsCluster | undefined;
  let node: RunningServer | undefined;
  afterAll(async () => {
    await node?.stop();
    await nats?.stop();
  });

  it('waits while a replica cannot be placed, says why, and joins once the third peer is back', async () => {
    nats = await startNatsCluster(tempDir('tas-nats-'));
    await nats.stopServer(2);
    const cluster = nats;
    const forming: LogLine[] = [];
    node = await startServer({
      config: { cluster: { enabled: true, node_id: 'n1', nats: { servers: cluster.urls }, shards: 1, replicas: 3, lease_ms: 2000, preferred_shards: [0] } },
      onLog: (line) => {
        if (line.msg !== FORMING) return;
        // The first refusal: the peer comes back, and the node's next attempts must then succeed.
        if (forming.push(line) === 1) cluster.startServer(2);
      },
    });
    expect(forming.length).toBeGreaterThan(0);
    expect(forming[0]).toMatchObject({ what: `stream ${journalStream(0)}`, reason: expect.stringMatching(/no suitable peers for placement/) });
    await node.waitForLog((l) => l.msg === 'shard owned');
  }, 60_000);
});
