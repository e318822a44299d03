// The kill switch through the real server process: positions and pending orders of every source
// on several accounts in both shards; a trigger closes and cancels exactly the documented ones,
// pauses the user's webhooks, and makes every non-manual trading call of the user's accounts 423;
// the state is the same after a restart; a crash between the journal entry and the shards is
// finished at start-up; reset needs a fresh TOTP code; the account flag acts on one account.
import { openStore } from '../../src/store/store.js';
import { KILL_SWITCH } from '../../src/gateway/killswitch/kill-store.js';
import { WEBHOOKS } from '../../src/store/records.js';
import { afterAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/shard/protocol.js';
import { base32Decode, hotp, TOTP_STEP_MS } from '../../src/base/totp.js';
import { operator, RestClient, send, type Answer, type Credentials } from '../rest/support/client.js';
import { DEFAULT_SHARDS as SHARDS, startServer, tempDir, type RunningServer } from '../support/server.js';

const USER = 'ku';
const TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const OWN = ['600001', '600002', '600003', '600004'];
const OTHER = '600005';
const keyOf = (login: string): Credentials => ({ id: `k-${login}`, secret: `key-secret-of-${login}-0123456789` });
const hookSecret = (id: string): string => `${id}-secret-0123456789`;

const SEED = {
  symbols: [{ name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, max_volume: 50, session: '24x7' }],
  users: [
    { id: USER, password: 'password-ku', totp_secret: TOTP_SECRET },
    { id: 'other', password: 'password-other', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DQ' },
  ],
  accounts: [...OWN, OTHER].map((login) => ({ login, user: login === OTHER ? 'other' : USER, currency: 'USD', balance: 100000 })),
  keys: [...OWN, OTHER].map((login) => ({ ...keyOf(login), login, scopes: ['read', 'trade'], rate_limit: 50 })),
  webhooks: [
    { id: 'kwh', user: USER, secret: hookSecret('kwh'), symbols: ['EURUSD'], targets: OWN.map((login) => ({ login, sizing: { type: 'fixed', lots: 0.01 } })) },
    { id: 'kwh2', user: USER, secret: hookSecret('kwh2'), symbols: ['EURUSD'], targets: [{ login: OWN[0], sizing: { type: 'fixed', lots: 0.02 } }] },
    { id: 'owh', user: 'other', secret: hookSecret('owh'), symbols: ['EURUSD'], targets: [{ login: OTHER, sizing: { type: 'fixed', lots: 0.01 } }] },
  ],
};
const CONFIG = { prices: { source: 'push' } };
const OPERATOR_SOURCES = ['manual', 'strategy', 'copy'] as const;

interface Opened { readonly ticket: number; readonly source: string; readonly login: string }
interface Pending { readonly id: string; readonly source: string; readonly login: string }

const servers: RunningServer[] = [];
afterAll(async () => { for (const s of servers) await s.kill().catch(() => undefined); });

async function start(dataDir: string): Promise<RunningServer> {
  const s = await startServer({ dataDir, seed: SEED, config: CONFIG });
  servers.push(s);
  return s;
}

const ok = (res: Answer, status = 200): Answer => { expect(res.status, res.text).toBe(status); return res; };
const op = (s: RunningServer, method: string, path: string, body?: unknown): Promise<Answer> => operator(s.consolePort, s.adminToken, method, path, body);
const rest = (s: RunningServer, login: string): RestClient => new RestClient(s.httpPort, keyOf(login));
const signal = (s: RunningServer, hook: string): Promise<Answer> =>
  send(s.httpPort, 'POST', `/v1/signal/${hook}`, { body: JSON.stringify({ secret: hookSecret(hook), action: 'buy', symbol: 'EURUSD' }) });
const market = (login: string, source: string) => ({ login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, source });
const limit = (login: string, source: string) => ({ login, symbol: 'EURUSD', side: 'buy', type: 'limit', price: 1.05, volume: 0.01, source });
const totpNow = (): string => hotp(base32Decode(TOTP_SECRET), Math.floor(Date.now() / TOTP_STEP_MS));

/** Every source's position and every source's pending order on `logins`; the webhook ones by signal. */
async function populate(s: RunningServer, logins: readonly string[], hook: string): Promise<{ opened: Opened[]; pending: Pending[] }> {
  const opened: Opened[] = [];
  const pending: Pending[] = [];
  for (const login of logins) {
    for (const source of OPERATOR_SOURCES) {
      opened.push({ ticket: ok(await op(s, 'POST', '/console/api/orders', market(login, source))).body.ticket, source, login });
      pending.push({ id: ok(await op(s, 'POST', '/console/api/orders', limit(login, source))).body.id, source, login });
    }
    const { source: _s, ...apiMarket } = market(login, 'api');
    const { source: _l, ...apiLimit } = limit(login, 'api');
    opened.push({ ticket: ok(await rest(s, login).post('/v1/orders', apiMarket)).body.ticket, source: 'api', login });
    pending.push({ id: ok(await rest(s, login).post('/v1/orders', apiLimit)).body.id, source: 'api', login });
  }
  for (const f of ok(await signal(s, hook)).body.fanout as { login: string; ticket: number }[]) opened.push({ ticket: f.ticket, source: 'webhook', login: f.login });
  return { opened, pending };
}

async function openTickets(s: RunningServer, login: string): Promise<number[]> {
  return (ok(await rest(s, login).get(`/v1/positions?login=${login}`)).body.data as { ticket: number }[]).map((p) => p.ticket);
}

/** What the API shows of the user's world: switch state, webhooks, every account's open positions. */
async function visibleState(s: RunningServer): Promise<unknown> {
  return {
    killSwitch: ok(await op(s, 'GET', `/console/api/users/${USER}/kill-switch`)).body,
    webhooks: ok(await op(s, 'GET', '/console/api/webhooks')).body,
    positions: await Promise.all([...OWN, OTHER].map(async (login) => ok(await rest(s, login).get(`/v1/positions?login=${login}`)).body.data)),
  };
}

/** The stored state of the accounts, read from LMDB while no server runs. */
async function storedState(dataDir: string): Promise<unknown> {
  const store = openStore(dataDir, 'none', SHARDS);
  const rows = <V>(dbs: readonly { getRange(): Iterable<{ value: V }> }[]): V[] => dbs.flatMap((db) => [...db.getRange()].map((e) => e.value));
  const state = {
    accounts: rows(store.shards.map((d) => d.accounts)).map((a) => [a.login, a.balance, a.margin, a.userHalted, a.accountHalted]),
    positions: rows(store.shards.map((d) => d.positions)).map((p) => [p.ticket, p.login, p.source, p.volume]),
    pending: rows(store.shards.map((d) => d.pending)).map((o) => [o.id, o.login, o.source]),
    killSwitch: rows([store.table(KILL_SWITCH)]),
    webhooks: rows([store.table(WEBHOOKS)]).map((w) => [w.id, w.paused]),
  };
  await store.close();
  return state;
}

/** Position events of `tickets` with reason kill_switch, from the stored event journal. */
async function killSwitchCloses(dataDir: string): Promise<number[]> {
  const store = openStore(dataDir, 'none', SHARDS);
  const events = store.shards.flatMap((d) => [...d.events.getRange()].map((e) => e.value));
  await store.close();
  return events.flatMap((e) => (e.type === 'position' && e.status === 'closed' && e.reason === 'kill_switch' ? [e.position.ticket] : [])).sort((a, b) => a - b);
}

const byTicket = (a: number, b: number): number => a - b;

describe('user kill switch', () => {
  const dataDir = tempDir();

  it('closes exactly the api/webhook/strategy positions, cancels the non-manual pending orders, pauses the webhooks, and survives a restart', async () => {
    expect(new Set(OWN.map((l) => shardOf(l, 2)))).toEqual(new Set([0, 1]));
    const first = await start(dataDir);
    const mine = await populate(first, OWN, 'kwh');
    const theirs = await populate(first, [OTHER], 'owh');
    expect(ok(await op(first, 'GET', `/console/api/users/${USER}/kill-switch`)).body).toMatchObject({ user: USER, state: 'Armed' });

    const report = ok(await op(first, 'POST', `/console/api/users/${USER}/kill-switch/trigger`)).body;
    expect(report).toMatchObject({ user: USER, state: 'Triggered', accounts: OWN, failed: [] });
    // The answer's text is joined from the view's, the report's and the paused webhooks' texts.
    expect(Object.keys(report)).toEqual(['user', 'state', 'since', 'accounts', 'closed', 'cancelled', 'failed', 'paused_webhooks']);
    expect(report.paused_webhooks).toEqual(['kwh', 'kwh2']);
    const killable = mine.opened.filter((p) => ['api', 'webhook', 'strategy'].includes(p.source));
    expect(killable).toHaveLength(OWN.length * 3);
    expect(report.closed.map((c: { ticket: number }) => c.ticket).sort(byTicket)).toEqual(killable.map((p) => p.ticket).sort(byTicket));
    for (const c of report.closed) {
      const p = killable.find((k) => k.ticket === c.ticket)!;
      expect(c).toMatchObject({ login: p.login, source: p.source, status: 'closed', symbol: 'EURUSD', volume: 0.01, close_price: 1.1 });
    }
    const cancellable = mine.pending.filter((o) => o.source !== 'manual');
    expect(report.cancelled.map((c: { id: string }) => c.id).sort()).toEqual(cancellable.map((o) => o.id).sort());
    for (const c of report.cancelled) expect(c).toMatchObject({ source: cancellable.find((o) => o.id === c.id)!.source, type: 'limit' });

    // Manual and copy positions stay; the other user's account is untouched.
    for (const login of OWN) {
      const left = mine.opened.filter((p) => p.login === login && (p.source === 'manual' || p.source === 'copy')).map((p) => p.ticket);
      expect((await openTickets(first, login)).sort(byTicket)).toEqual(left.sort(byTicket));
    }
    expect((await openTickets(first, OTHER)).sort(byTicket)).toEqual(theirs.opened.map((p) => p.ticket).sort(byTicket));

    // Every non-manual trading call of the user's accounts is 423; manual trading and the other user go on.
    expect(ok(await op(first, 'GET', `/console/api/users/${USER}/kill-switch`)).body.state).toBe('Triggered');
    expect(ok(await signal(first, 'kwh'), 423).body.error.name).toBe('kill_switch_active');
    ok(await signal(first, 'kwh2'), 423);
    ok(await signal(first, 'owh'));
    const { source: _s, ...apiOrder } = market(OWN[1]!, 'api');
    expect(ok(await rest(first, OWN[1]!).post('/v1/orders', apiOrder), 423).body.error.name).toBe('kill_switch_active');
    const manualTicket = mine.opened.find((p) => p.login === OWN[1] && p.source === 'manual')!.ticket;
    ok(await rest(first, OWN[1]!).del(`/v1/positions/${manualTicket}`), 423);
    ok(await op(first, 'POST', '/console/api/orders', market(OWN[2]!, 'strategy')), 423);
    ok(await op(first, 'POST', '/console/api/orders', market(OWN[2]!, 'manual')));
    const { source: _o, ...otherOrder } = market(OTHER, 'api');
    ok(await rest(first, OTHER).post('/v1/orders', otherOrder));

    // A restart shows and stores the same state, and keeps refusing.
    const before = await visibleState(first);
    expect(await first.stop()).toBe(0);
    const storedBefore = await storedState(dataDir);
    expect(await killSwitchCloses(dataDir)).toEqual(killable.map((p) => p.ticket).sort(byTicket));
    const second = await start(dataDir);
    expect(await visibleState(second)).toEqual(before);
    ok(await signal(second, 'kwh'), 423);
    ok(await rest(second, OWN[1]!).post('/v1/orders', apiOrder), 423);
    expect(await second.stop()).toBe(0);
    expect(await storedState(dataDir)).toEqual(storedBefore);
  }, 60_000);

  it('resets only with a fresh TOTP code from a user, leaves the webhooks paused, and the operator may reset without one', async () => {
    const s = await start(dataDir);
    const code = totpNow();
    expect(ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`, { totp: '000000' === code ? '111111' : '000000' }), 401).body.error.field).toBe('totp');
    expect(ok(await op(s, 'GET', `/console/api/users/${USER}/kill-switch`)).body.state).toBe('Triggered');
    const reset = ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`, { totp: code })).body;
    expect(reset).toMatchObject({ user: USER, state: 'Armed', released: OWN, failed: [] });
    const { source: _s, ...apiOrder } = market(OWN[1]!, 'api');
    ok(await rest(s, OWN[1]!).post('/v1/orders', apiOrder));
    // The webhooks stay paused until the operator resumes them.
    expect(ok(await signal(s, 'kwh'), 423).body.error.message).toContain('paused');
    ok(await op(s, 'POST', '/console/api/webhooks/kwh/resume'));
    ok(await signal(s, 'kwh'));

    // The same code never works twice.
    ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/trigger`));
    ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`, { totp: code }), 401);
    // A second trigger while Triggered halts again and finds nothing more to close.
    const again = ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/trigger`)).body;
    expect(again).toMatchObject({ state: 'Triggered', closed: [], cancelled: [], failed: [], paused_webhooks: [] });
    expect(Object.keys(again)).toEqual(['user', 'state', 'since', 'accounts', 'closed', 'cancelled', 'failed', 'paused_webhooks']);
    expect(ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`, {})).body.state).toBe('Armed');
    ok(await rest(s, OWN[1]!).post('/v1/orders', apiOrder));
    ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`), 200);

    ok(await op(s, 'GET', '/console/api/users/nobody/kill-switch'), 404);
    ok(await op(s, 'POST', '/console/api/users/nobody/kill-switch/trigger'), 404);
    ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/reset`, { totp: 123456 }), 400);
    ok(await op(s, 'POST', `/console/api/users/${USER}/kill-switch/trigger`, { now: true }), 400);
    expect(await s.stop()).toBe(0);
  }, 60_000);
});

describe('account kill switch', () => {
  it('gives 423 on that account only, flattens nothing, and lifts', async () => {
    const s = await start(tempDir());
    await populate(s, OWN.slice(0, 2), 'kwh2');
    const [halted, free] = OWN as [string, string];
    const openBefore = await openTickets(s, halted);
    expect(openBefore.length).toBeGreaterThan(0);
    const on = ok(await op(s, 'PUT', `/console/api/accounts/${halted}/kill-switch`, { active: true })).body;
    expect(on).toMatchObject({ login: halted, active: true, closed: [], cancelled: [], failed: [] });
    expect(await openTickets(s, halted)).toEqual(openBefore);
    const { source: _h, ...haltedOrder } = market(halted, 'api');
    const { source: _f, ...freeOrder } = market(free, 'api');
    ok(await rest(s, halted).post('/v1/orders', haltedOrder), 423);
    ok(await rest(s, free).post('/v1/orders', freeOrder));
    ok(await op(s, 'POST', '/console/api/orders', market(halted, 'manual')));
    expect(ok(await op(s, 'GET', `/console/api/users/${USER}/kill-switch`)).body.state).toBe('Armed');
    expect(ok(await op(s, 'PUT', `/console/api/accounts/${halted}/kill-switch`, { active: false })).body).toMatchObject({ active: false, closed: [] });
    ok(await rest(s, halted).post('/v1/orders', haltedOrder));

    ok(await op(s, 'PUT', '/console/api/accounts/999999/kill-switch', { active: true }), 404);
    expect(ok(await op(s, 'PUT', `/console/api/accounts/${halted}/kill-switch`, { active: 'yes' }), 400).body.error.field).toBe('active');
    ok(await op(s, 'PUT', `/console/api/accounts/${halted}/kill-switch`), 400);
    expect(await s.stop()).toBe(0);
  }, 60_000);
});

describe('crash between the journal entry and the shards', () => {
  it('is finished at start-up: the accounts are halted and swept, the webhooks paused', async () => {
    const dataDir = tempDir();
    const s = await start(dataDir);
    const { opened } = await populate(s, OWN, 'kwh');
    expect(await s.stop()).toBe(0);
    // What a crash right after the trigger's durable journal write leaves behind.
    const store = openStore(dataDir, 'sync', SHARDS);
    await store.table(KILL_SWITCH).put(USER, { user: USER, state: 'Triggered', sinceMs: Date.now() });
    await store.close();

    const restarted = await start(dataDir);
    expect(ok(await op(restarted, 'GET', `/console/api/users/${USER}/kill-switch`)).body.state).toBe('Triggered');
    for (const login of OWN) {
      const left = opened.filter((p) => p.login === login && (p.source === 'manual' || p.source === 'copy')).map((p) => p.ticket);
      expect((await openTickets(restarted, login)).sort(byTicket)).toEqual(left.sort(byTicket));
    }
    ok(await signal(restarted, 'kwh'), 423);
    const { source: _s, ...apiOrder } = market(OWN[0]!, 'api');
    ok(await rest(restarted, OWN[0]!).post('/v1/orders', apiOrder), 423);
    expect(restarted.logs.some((l) => l.msg === 'kill switch: accounts reconciled')).toBe(true);
    const hooks = ok(await op(restarted, 'GET', '/console/api/webhooks')).body.data as { id: string; paused: boolean }[];
    expect(hooks.filter((h) => h.paused).map((h) => h.id)).toEqual(['kwh', 'kwh2']);
    expect(await restarted.stop()).toBe(0);
  }, 60_000);
});

describe('user kill switch over hundreds of accounts', () => {
  // 700 accounts in two shards: each shard's share is one frame of hundreds of commands, answered
  // in one batch whose replies travel compacted (src/shard/batch-wire.ts); the report lists every
  // close once, in the accounts' order.
  const BULK = Array.from({ length: 700 }, (_, i) => String(610_001 + i));
  const seed = {
    symbols: SEED.symbols,
    users: [{ id: 'bulk', password: 'password-bulk', totp_secret: TOTP_SECRET }],
    accounts: BULK.map((login) => ({ login, user: 'bulk', currency: 'USD', balance: 100000 })),
    keys: [],
    webhooks: [{ id: 'bwh', user: 'bulk', secret: hookSecret('bwh'), symbols: ['EURUSD'], targets: BULK.map((login) => ({ login, sizing: { type: 'fixed', lots: 0.01 } })) }],
  };

  it('closes every position of every account and reports each close once, in account order', async () => {
    const s = await startServer({ dataDir: tempDir(), seed, config: CONFIG });
    servers.push(s);
    const opened: { login: string; ticket: number }[] = [];
    for (let round = 0; round < 4; round++) {
      const fanout = ok(await signal(s, 'bwh')).body.fanout as { login: string; ticket: number }[];
      expect(fanout.every((f) => Number.isInteger(f.ticket))).toBe(true);
      opened.push(...fanout);
    }
    expect(opened).toHaveLength(4 * BULK.length);

    const report = ok(await op(s, 'POST', '/console/api/users/bulk/kill-switch/trigger')).body;
    expect(report).toMatchObject({ state: 'Triggered', accounts: BULK, cancelled: [], failed: [] });
    const closed = report.closed as { login: string; ticket: number; source: string }[];
    expect(closed.map((c) => c.ticket).sort(byTicket)).toEqual(opened.map((o) => o.ticket).sort(byTicket));
    expect(closed.map((c) => c.login)).toEqual(BULK.flatMap((login) => [login, login, login, login]));
    expect(closed.every((c) => c.source === 'webhook' && opened.find((o) => o.ticket === c.ticket)!.login === c.login)).toBe(true);
    for (const login of [BULK[0]!, BULK[349]!, BULK[699]!]) {
      expect(ok(await op(s, 'GET', `/console/api/accounts/${login}`)).body.positions).toEqual([]);
    }
    ok(await signal(s, 'bwh'), 423);

    // The report is stored behind the answer, as the text the answer was made of; the history gives it back.
    let stored = null;
    for (let tries = 0; stored === null && tries < 500; tries++) {
      stored = ok(await op(s, 'GET', '/console/api/users/bulk/kill-switch/history')).body.data[0].report;
    }
    expect(stored).toEqual({ accounts: report.accounts, closed: report.closed, cancelled: [], failed: [] });
    await s.stop();
  }, 60_000);
});
