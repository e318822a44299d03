// The audit log (LMDB): every console action, allowed or refused, with who, when, from which
// address, the target and what changed; never a secret. A user reads the entries they made and
// those on their resources; the operator reads all. Pages newest first; kept across restarts.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user, type Session } from './support/console.js';

interface Entry {
  seq: number; at: string; actor: string; ip: string; action: string; method: string; path: string; target: string | null;
  owner: string | null; outcome: string; status: number; error?: { name: string; field?: string }; detail: Record<string, unknown> | null;
}

let server: RunningServer;
let alice: Session;
let bob: Session;
const aliceUser = user('alice', SECRETS.alice);
const codes: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, aliceUser, { localAddress: '127.0.0.9' });
  bob = await login(server.consolePort, user('bob', SECRETS.bob));
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const op = (method: string, p: string, body?: unknown) => operator(server.consolePort, server.adminToken, method, p, body);
const entries = async (read: (p: string) => ReturnType<typeof op>, query = ''): Promise<Entry[]> => ok(await read(`/console/api/audit${query}`)).body.data;
const asAlice = (p: string) => as(alice, 'GET', p);
const asOperator = (p: string) => op('GET', p);

describe('audit log', () => {
  it('records who did what, from where, what changed, and refusals, without secrets', async () => {
    const code = await aliceUser.device.fresh();
    codes.push(code);
    expectError(await as(alice, 'POST', '/console/api/keys', { name: 'x', login: '700001', scopes: ['withdraw'], totp: code }), 400, 'bad_request', 'scopes[0]');
    const key = ok(await as(alice, 'POST', '/console/api/keys', { name: 'audited', login: '700001', scopes: ['read'], rate_limit: 10, expires_at: null, ip_whitelist: [], totp: code }), 201).body;
    secrets.push(key.secret);
    ok(await as(alice, 'POST', `/console/api/keys/${key.id}/pause`));
    ok(await op('POST', `/console/api/keys/${key.id}/resume`));
    const hook = ok(await as(alice, 'POST', '/console/api/webhooks', { symbols: ['EURUSD'], targets: [{ login: '700001', sizing: { type: 'fixed', lots: 0.01 } }] }), 201).body;
    secrets.push(hook.secret);
    ok(await as(bob, 'POST', '/console/api/keys/k-bob/pause'));

    const mine = await entries(asAlice);
    const actions = mine.map((e) => [e.action, e.actor, e.outcome, e.status]);
    expect(actions.slice(0, 5)).toEqual([
      ['webhook.create', 'user:alice', 'ok', 201],
      ['key.resume', 'operator', 'ok', 200],
      ['key.pause', 'user:alice', 'ok', 200],
      ['key.create', 'user:alice', 'ok', 201],
      ['key.create', 'user:alice', 'refused', 400],
    ]);
    expect(mine.at(-1)).toMatchObject({ action: 'session.login', actor: 'user:alice', ip: '127.0.0.9', outcome: 'ok', target: 'alice', owner: 'alice' });
    const [created, refused] = [mine[3]!, mine[4]!];
    expect(created).toMatchObject({
      method: 'POST', path: '/console/api/keys', target: key.id, owner: 'alice', ip: '127.0.0.1',
      detail: { created: { name: 'audited', login: '700001', scopes: ['read'], rate_limit: 10, ip_whitelist: [], expires_at: null } },
    });
    expect(Date.now() - Date.parse(created.at)).toBeLessThan(60_000);
    expect(refused).toMatchObject({ error: { name: 'bad_request', field: 'scopes[0]' }, detail: { scopes: ['withdraw'], totp: '(not logged)' } });
    expect(mine[2]!.detail).toEqual({ status: { from: 'Active', to: 'Paused' } });
    expect(mine[1]).toMatchObject({ target: key.id, owner: 'alice', detail: { status: { from: 'Paused', to: 'Active' } } });
    // Bob's entries are not alice's, and alice cannot ask for them.
    expect(mine.some((e) => e.target === 'k-bob')).toBe(false);
    expect((await entries((p) => as(bob, 'GET', p))).map((e) => e.action).slice(0, 2)).toEqual(['key.pause', 'session.login']);
    expectError(await as(alice, 'GET', '/console/api/audit?user=bob'), 404, 'not_found');
    // The operator sees everything, or one user's.
    expect((await entries(asOperator, '?user=bob')).every((e) => e.actor === 'user:bob' || e.owner === 'bob')).toBe(true);
    const everything = JSON.stringify(await entries(asOperator, '?limit=1000'));
    for (const s of [...secrets, ...codes, 'password-of-alice', 'password-of-bob', alice.csrf, alice.cookie.split('=')[1]!]) expect(everything).not.toContain(s);
  });

  it('pages newest first and refuses bad paging', async () => {
    const all = await entries(asOperator);
    const first = ok(await op('GET', '/console/api/audit?limit=3')).body;
    expect(first.data.map((e: Entry) => e.seq)).toEqual(all.slice(0, 3).map((e) => e.seq));
    const second = ok(await op('GET', `/console/api/audit?limit=3&cursor=${first.next_cursor}`)).body;
    expect(second.data.map((e: Entry) => e.seq)).toEqual(all.slice(3, 6).map((e) => e.seq));
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => b - a));
    expectError(await op('GET', '/console/api/audit?limit=0'), 400, 'bad_request', 'limit');
    expectError(await op('GET', '/console/api/audit?cursor=abc'), 400, 'bad_request', 'cursor');
    expectError(await op('GET', '/console/api/audit?since=1'), 400, 'bad_request', 'since');
  });

  it('is kept across a restart', async () => {
    const before = await entries(asOperator);
    expect(await server.stop()).toBe(0);
    server = await startServer({ dataDir: server.dataDir, seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
    const after = await entries(asOperator);
    // The reading itself is not an entry (reads are audited only when refused).
    expect(after).toEqual(before);
    ok(await op('POST', `/console/api/keys/${ALICE_KEY.id}/pause`));
    expect((await entries(asOperator))[0]!.seq).toBe(before[0]!.seq + 1);
  });
});
