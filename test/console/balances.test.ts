// No console route moves funds (spec "What the service does" 3): every route the console serves,
// called by the operator with a working request and by a user with a request stuffed with money
// fields, leaves every balance where trading put it. The only balance changes are the realized
// profit of positions the kill switches closed, as their reports say. A route added without a
// sample here fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, type Answer } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { as, CONSOLE_CONFIG, consoleSeed, login, SECRETS, user, type Session } from './support/console.js';

let server: RunningServer;
let alice: Session;

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, user('alice', SECRETS.alice));
});
afterAll(async () => { await server.stop(); });

const op = (method: string, p: string, body?: unknown): Promise<Answer> => operator(server.consolePort, server.adminToken, method, p, body);
const order = (login: string) => ({ login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.05, source: 'strategy' });
const newKey = { name: 'b', login: '700001', scopes: ['read', 'trade'], rate_limit: 10, expires_at: null, ip_whitelist: [] };
const target = [{ login: '700001', sizing: { type: 'fixed', lots: 0.01 } }];

/** A working request (or several) per route, as `METHOD path`. */
const SAMPLES: Readonly<Record<string, readonly unknown[]>> = {
  'POST /console/api/login': [{ user: 'alice', password: 'wrong', totp: '000000' }],
  'POST /console/api/logout': [undefined],
  'GET /console/api/session': [undefined],
  'POST /console/api/quotes': [{ symbol: 'EURUSD', bid: 1.1, ask: 1.1002 }],
  'POST /console/api/orders': [order('700001'), order('700002')],
  'GET /console/api/accounts': [undefined],
  'GET /console/api/accounts/:login': [undefined],
  'GET /console/api/accounts/:login/equity': [undefined],
  'DELETE /console/api/accounts/:login/positions/:ticket': [undefined],
  'DELETE /console/api/accounts/:login/orders/:id': [undefined],
  'GET /console/api/quotes': [undefined],
  'GET /console/api/users': [undefined],
  'POST /console/api/users': [{ id: 'newbie', password: 'a long enough password' }],
  'POST /console/api/users/:user/totp/enrol': [undefined],
  'POST /console/api/users/:user/totp/confirm': [{ totp: '000000' }],
  'GET /console/api/keys': [undefined],
  'POST /console/api/keys': [newKey],
  'GET /console/api/keys/:id': [undefined],
  'POST /console/api/keys/:id/pause': [undefined],
  'POST /console/api/keys/:id/resume': [undefined],
  'DELETE /console/api/keys/:id': [undefined],
  'PUT /console/api/keys/:id/kill-switch': [{ active: true }],
  'GET /console/api/keys/:id/stats': [undefined],
  'GET /console/api/keys/:id/series': [undefined],
  'GET /console/api/users/:user/kill-switch': [undefined],
  'POST /console/api/users/:user/kill-switch/trigger': [undefined],
  'POST /console/api/users/:user/kill-switch/reset': [undefined],
  'GET /console/api/users/:user/kill-switch/history': [undefined],
  'PUT /console/api/accounts/:login/kill-switch': [{ active: true }, { active: false }],
  'GET /console/api/webhooks': [undefined],
  'POST /console/api/webhooks': [{ symbols: ['EURUSD'], targets: target, user: 'alice' }],
  'PUT /console/api/webhooks/:id': [{ symbols: ['EURUSD'], targets: target }],
  'POST /console/api/webhooks/:id/pause': [undefined],
  'POST /console/api/webhooks/:id/resume': [undefined],
  'POST /console/api/webhooks/:id/rotate-secret': [undefined],
  'GET /console/api/webhooks/:id/signals': [undefined],
  'GET /console/api/audit': [undefined],
  'GET /console/api/routes': [undefined],
  'GET /metrics': [undefined],
};

/** What a request stuffed with money fields looks like. */
const GREEDY = { amount: 1_000_000, balance: 1e9, deposit: 5000, withdraw: 5000, login: '700001', to: '700101', currency: 'USD' };

interface Route { readonly method: string; readonly path: string; readonly access: string }

async function balances(): Promise<Map<string, number>> {
  const res = await op('GET', '/console/api/accounts');
  return new Map(res.body.data.map((a: { login: string; balance: number }) => [a.login, Math.round(a.balance * 100)]));
}

describe('no console route changes a balance', () => {
  it('moves no funds, whoever calls it and whatever they send; only kill switch closes realize profit', async () => {
    const routes: Route[] = (await op('GET', '/console/api/routes')).body.data;
    expect(routes.map((r) => `${r.method} ${r.path}`).filter((r) => SAMPLES[r] === undefined)).toEqual([]);
    for (const r of routes) expect(r.path).not.toMatch(/withdraw|deposit|transfer|balance|fund|payout/i);

    const start = await balances();
    const realizedCents = new Map<string, number>();
    const seen: string[] = [];
    const account = (answer: Answer): void => {
      seen.push(`${answer.status}`);
      expect(answer.status, answer.text).toBeLessThan(500);
      const closed = answer.body?.closed;
      if (!Array.isArray(closed)) return;
      for (const c of closed as { login: string; profit: number }[]) realizedCents.set(c.login, (realizedCents.get(c.login) ?? 0) + Math.round(c.profit * 100));
    };
    let keyId = '';
    const params = (path: string): string => path
      .replace(':user', 'alice').replace(':login', '700002').replace(':ticket', '999999')
      .replace(/keys\/:id/, `keys/${keyId}`).replace(/webhooks\/:id/, 'webhooks/wh-alice');

    for (const r of routes) {
      for (const body of SAMPLES[`${r.method} ${r.path}`]!) {
        const answer = await op(r.method, params(r.path), body);
        if (r.method === 'POST' && r.path === '/console/api/keys') keyId = answer.body.id;
        account(answer);
      }
    }
    expect(realizedCents.size).toBeGreaterThan(0);
    // A user's turn, with every money field stuffed into every request.
    keyId = 'k-alice';
    for (const r of routes) {
      if (r.path === '/console/api/logout') continue;
      account(await as(alice, r.method, params(r.path), r.method === 'GET' ? undefined : { ...GREEDY, ...(SAMPLES[`${r.method} ${r.path}`]![0] as object | undefined) }));
      account(await as(alice, r.method, params(r.path), r.method === 'GET' ? undefined : GREEDY));
    }

    const end = await balances();
    for (const [login, cents] of start) expect(end.get(login), login).toBe(cents + (realizedCents.get(login) ?? 0));
    expect(seen.length).toBeGreaterThan(2 * routes.length);
  });
});
