// The console's key routes (pause, resume, revoke, kill switch, statistics) over the operator
// listener, and the per-key statistics surviving a restart.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, type RunningServer } from '../support/server.js';
import { operator, RestClient, send } from './support/client.js';
import { KEYS, MAIN_LOGIN, REST_CONFIG, restSeed } from './support/seed.js';

const dataDir = tempDir();
const seed = restSeed(Date.now());
const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.kill().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<RunningServer> {
  const s = await startServer({ dataDir, seed, config: REST_CONFIG });
  servers.push(s);
  return s;
}

describe('console key routes', () => {
  it('need the operator token, a known key and a boolean for the kill switch', async () => {
    const server = await start();
    const op = (method: string, path: string, body?: unknown) => operator(server.consolePort, server.adminToken, method, path, body);
    expect((await send(server.consolePort, 'POST', `/console/api/keys/${KEYS.main.id}/pause`)).status).toBe(401);
    expect((await operator(server.consolePort, 'wrong-token-0123456789', 'GET', `/console/api/keys/${KEYS.main.id}/stats`)).status).toBe(401);
    for (const [method, path] of [['POST', '/pause'], ['POST', '/resume'], ['DELETE', ''], ['GET', '/stats']] as const) {
      const res = await op(method, `/console/api/keys/nope${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error.name).toBe('not_found');
    }
    for (const body of [{}, { active: 'yes' }, { active: 1 }]) {
      const res = await op('PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'bad_request', field: 'active' });
    }
    const malformed = await send(server.consolePort, 'PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, {
      headers: { authorization: `Bearer ${server.adminToken}` }, body: '{"active":',
    });
    expect(malformed.status).toBe(400);
    const on = await op('PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, { active: true });
    expect(on.body).toEqual({ id: KEYS.halted.id, login: '100003', status: 'Active', kill_switch: { active: true }, revoked_at: null });
    const off = await op('PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, { active: false });
    expect(off.body.kill_switch).toEqual({ active: false });
    await server.stop();
  });

  it('reports per-key requests, errors, latency, top endpoints and last use, and keeps them across a restart', async () => {
    let server = await start();
    const api = new RestClient(server.httpPort, KEYS.readOnly);
    for (let i = 0; i < 6; i++) expect((await api.get('/v1/positions')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await api.get(`/v1/accounts/${MAIN_LOGIN}`)).status).toBe(200);
    expect((await api.get('/v1/accounts/42')).status).toBe(404);
    expect((await api.post('/v1/orders', {})).status).toBe(403);
    expect((await api.get('/v1/accounts', { ts: '1' })).status).toBe(401);

    const stats = await operator(server.consolePort, server.adminToken, 'GET', `/console/api/keys/${KEYS.readOnly.id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      key_id: KEYS.readOnly.id,
      requests: 12,
      errors: 3,
      error_rate: 0.25,
      errors_by_name: { not_found: 1, forbidden: 1, unauthorized: 1 },
      last_used_ip: '127.0.0.1',
    });
    expect(stats.body.top_endpoints.slice(0, 2)).toEqual([
      { endpoint: 'GET /v1/positions', requests: 6 },
      { endpoint: 'GET /v1/accounts/{login}', requests: 4 },
    ]);
    const { p50, p90, p99 } = stats.body.latency_ms;
    for (const p of [p50, p90, p99]) expect(p).toBeGreaterThan(0);
    expect(p50).toBeLessThanOrEqual(p90);
    expect(p90).toBeLessThanOrEqual(p99);
    expect(Date.now() - Date.parse(stats.body.last_used_at)).toBeLessThan(60_000);

    // A key never used has empty statistics.
    const unused = await operator(server.consolePort, server.adminToken, 'GET', `/console/api/keys/${KEYS.other.id}/stats`);
    expect(unused.body).toMatchObject({ requests: 0, errors: 0, error_rate: 0, latency_ms: { p50: null }, top_endpoints: [], last_used_at: null });

    expect(await server.stop()).toBe(0);
    server = await start();
    const after = await operator(server.consolePort, server.adminToken, 'GET', `/console/api/keys/${KEYS.readOnly.id}/stats`);
    expect(after.body).toEqual(stats.body);
    await server.stop();
  });
});
