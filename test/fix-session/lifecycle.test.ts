// The FIX thread through a stop and a restart of the real service: live sessions are logged out
// with a Logout handshake on SIGTERM, and after a restart on the same data the certificate is
// reused, an order placed before is found again by its ClOrdID (the engine's durable client ids,
// read by the FIX thread from LMDB) and that ClOrdID stays taken.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GENERATED_CERT_FILE } from '../../src/fix/tls-cert.js';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { frame, utc } from './support/harness.js';
import { RawClient } from './support/raw-client.js';

const SECRET = 'demo-secret-0123456789abcdef';
const header = (type: string, seq: number): string => `35=${type}|34=${seq}|49=TAS_100001|52=${utc(Date.now())}|56=TASGW|`;

async function logOn(server: RunningServer): Promise<RawClient> {
  const ca = fs.readFileSync(path.join(server.dataDir, GENERATED_CERT_FILE), 'utf8');
  const c = await RawClient.connect(server.fixPort!, ca);
  c.write(frame(`${header('A', 1)}98=0|108=30|141=Y|553=demo-key|554=${SECRET}|`));
  expect((await c.next()).type).toBe('A');
  return c;
}

describe('stop and restart', () => {
  const dataDir = tempDir();
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.kill().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs sessions out on SIGTERM and finds their orders again after a restart', async () => {
    const first = await startServer({ dataDir, config: { fix: { session: '24x7' } } });
    servers.push(first);
    const cert = fs.readFileSync(path.join(dataDir, GENERATED_CERT_FILE), 'utf8');
    const c = await logOn(first);
    c.write(frame(`${header('D', 2)}11=keep-1|55=BTCUSD|54=1|60=${utc(Date.now())}|38=0.01|40=2|44=1000.00|59=1|`));
    const placed = await c.next((m) => m.type === '8');
    expect([placed.get(150), placed.get(11)]).toEqual(['0', 'keep-1']);

    const stopped = first.stop();
    const logout = await c.next((m) => m.type === '5');
    expect(logout.get(58)).toBe('The gateway is shutting down');
    c.write(frame(header('5', 3)));
    await c.closed;
    expect(await stopped).toBe(0);

    const second = await startServer({ dataDir, config: { fix: { session: '24x7' } } });
    servers.push(second);
    expect(fs.readFileSync(path.join(dataDir, GENERATED_CERT_FILE), 'utf8')).toBe(cert);
    expect((await second.waitForLog((l) => l.msg === 'fix gateway listening'))['tls']).toBe('data_dir');
    const again = await logOn(second);
    again.write(frame(`${header('D', 2)}11=keep-1|55=BTCUSD|54=1|60=${utc(Date.now())}|38=0.01|40=1|`));
    const duplicate = await again.next((m) => m.type === '8');
    expect([duplicate.get(150), duplicate.get(103)]).toEqual(['8', '6']);
    again.write(frame(`${header('F', 3)}41=keep-1|11=cancel-1|55=BTCUSD|54=1|60=${utc(Date.now())}|`));
    const cancelled = await again.next((m) => m.type === '8');
    expect([cancelled.get(150), cancelled.get(39), cancelled.get(41), cancelled.get(37)]).toEqual(['4', '4', 'keep-1', placed.get(37)]);
    again.write(frame(header('5', 4)));
    expect((await again.next((m) => m.type === '5')).type).toBe('5');
    await again.closed;
  });
});
