// Interop with a real third-party FIX engine: jspurefix as the initiator over TLS 1.3 against the
// real service process (dist/src/main.js): logon, every order type, cancel, replace, market data,
// positions, an unsolicited report, logout, and the refusals. Every message jspurefix receives is
// also checked against the stock QuickFIX FIX44 dictionary. Prices only move when the test pushes
// them; BTCUSD trades 24x7, so nothing depends on the weekday.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CERT_FILE } from '../../src/fix/tls-cert.js';
import { startServer, type RunningServer } from '../support/server.js';
import { type ClientOptions, connectJspurefix, refusedLogon } from './support/jspurefix-client.js';

const DEMO_SECRET = 'demo-secret-0123456789abcdef';

async function console(server: RunningServer, route: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.console}/console/api/${route}`, {
    method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return await res.json() as Record<string, unknown>;
}

function options(server: RunningServer, over: Partial<ClientOptions> = {}): ClientOptions {
  const ca = fs.readFileSync(path.join(server.dataDir, GENERATED_CERT_FILE), 'utf8');
  return { port: server.fixPort!, ca, sender: 'TAS_100001', username: 'demo-key', password: DEMO_SECRET, ...over };
}

const btc = { Symbol: 'BTCUSD' };
const entries = (w: Record<string, unknown>): unknown => (w['MDFullGrp'] as { NoMDEntries: unknown }).NoMDEntries;

describe('jspurefix initiator over TLS 1.3', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: { fix: { session: '24x7' }, prices: { source: 'push' } } });
    await console(server, 'quotes', { symbol: 'BTCUSD', bid: 65000, ask: 65010 });
  });
  afterAll(async () => { await server.stop(); });

  it('logs on, trades market, limit and stop orders, replaces, cancels, streams quotes, reports positions and logs out', async () => {
    const c = await connectJspurefix(options(server));
    const now = new Date();

    c.send('D', { ClOrdID: 'm-1', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.01 }, OrdType: '1', TimeInForce: '3' });
    expect(await c.next('8', (o) => o['ClOrdID'] === 'm-1')).toMatchObject({
      ExecType: 'F', OrdStatus: '2', Instrument: btc, Side: '1', OrderQtyData: { OrderQty: 0.01 }, LastQty: 0.01, LastPx: 65010,
      LeavesQty: 0, CumQty: 0.01, AvgPx: 65010, Account: '100001',
    });

    c.send('D', { ClOrdID: 'l-1', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.02 }, OrdType: '2', Price: 60000, TimeInForce: '1' });
    const placed = await c.next('8', (o) => o['ClOrdID'] === 'l-1');
    expect(placed).toMatchObject({ ExecType: '0', OrdStatus: '0', Price: 60000, LeavesQty: 0.02, CumQty: 0 });
    c.send('G', { OrigClOrdID: 'l-1', ClOrdID: 'l-2', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.03 }, OrdType: '2', Price: 60100 });
    expect(await c.next('8', (o) => o['ClOrdID'] === 'l-2')).toMatchObject({
      ExecType: '5', OrdStatus: '0', OrigClOrdID: 'l-1', OrderID: placed['OrderID'], Price: 60100, OrderQtyData: { OrderQty: 0.03 },
    });
    c.send('F', { OrigClOrdID: 'l-2', ClOrdID: 'l-3', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.03 } });
    expect(await c.next('8', (o) => o['ClOrdID'] === 'l-3')).toMatchObject({ ExecType: '4', OrdStatus: '4', OrigClOrdID: 'l-2', OrderID: placed['OrderID'] });
    c.send('F', { OrigClOrdID: 'nope', ClOrdID: 'l-4', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.03 } });
    expect(await c.next('9', (o) => o['ClOrdID'] === 'l-4')).toMatchObject({ CxlRejResponseTo: '1', CxlRejReason: 1, OrdStatus: '8' });

    c.send('D', { ClOrdID: 's-1', Instrument: btc, Side: '1', TransactTime: now, OrderQtyData: { OrderQty: 0.01 }, OrdType: '3', StopPx: 70000, TimeInForce: '1' });
    expect(await c.next('8', (o) => o['ClOrdID'] === 's-1')).toMatchObject({ ExecType: '0', OrdStatus: '0', StopPx: 70000 });

    const md = (id: string, type: string): Record<string, unknown> => ({
      MDReqID: id, SubscriptionRequestType: type, MarketDepth: 1, MDUpdateType: 0,
      MDReqGrp: { NoMDEntryTypes: [{ MDEntryType: '0' }, { MDEntryType: '1' }] }, InstrmtMDReqGrp: { NoRelatedSym: [{ Instrument: btc }] },
    });
    c.send('V', md('md-1', '1'));
    expect(entries(await c.next('W', (o) => o['MDReqID'] === 'md-1'))).toEqual([{ MDEntryType: '0', MDEntryPx: 65000 }, { MDEntryType: '1', MDEntryPx: 65010 }]);
    await console(server, 'quotes', { symbol: 'BTCUSD', bid: 65100, ask: 65110 });
    expect(entries(await c.next('W', (o) => o['MDReqID'] === 'md-1'))).toEqual([{ MDEntryType: '0', MDEntryPx: 65100 }, { MDEntryType: '1', MDEntryPx: 65110 }]);
    c.send('V', md('md-live', '1'));
    await c.next('W', (o) => o['MDReqID'] === 'md-live');
    c.send('V', md('md-1', '2'));
    c.send('V', { ...md('md-x', '0'), InstrmtMDReqGrp: { NoRelatedSym: [{ Instrument: { Symbol: 'NOPE' } }] } });
    expect(await c.next('Y', (o) => o['MDReqID'] === 'md-x')).toMatchObject({ MDReqRejReason: '0', Text: 'unknown symbol NOPE' });
    // md-1 is gone (the Y came after its 263=2) while md-live still streams: the same tick reaches only md-live.
    await console(server, 'quotes', { symbol: 'BTCUSD', bid: 65200, ask: 65210 });
    expect(entries(await c.next('W', (o) => o['MDReqID'] === 'md-live' && (entries(o) as { MDEntryPx: number }[])[0]?.MDEntryPx === 65200))).toBeTruthy();
    expect(c.session.received.filter((m) => m.msgType === 'W' && m.object['MDReqID'] === 'md-1')).toEqual([]);

    c.send('AN', {
      PosReqID: 'p-1', PosReqType: 0, Parties: { NoPartyIDs: [{ PartyID: '100001', PartyIDSource: 'D', PartyRole: 24 }] }, Account: '100001',
      AccountType: 1, ClearingBusinessDate: '20260101', TransactTime: now,
    });
    expect(await c.next('AO')).toMatchObject({ PosReqID: 'p-1', PosReqResult: 0, PosReqStatus: 0, TotalNumPosReports: 1, Account: '100001' });
    expect(await c.next('AP')).toMatchObject({
      PosReqID: 'p-1', Account: '100001', Instrument: btc, SettlPrice: 65010, PositionQty: { NoPositions: [{ PosType: 'TQ', LongQty: 0.01, ShortQty: 0 }] },
      PositionAmountData: { NoPosAmt: [{ PosAmtType: 'FMTM', PosAmt: 1.9 }] },
    });

    const order = await console(server, 'orders', { login: '100001', symbol: 'BTCUSD', side: 'sell', type: 'market', volume: 0.01, source: 'manual' });
    expect(await c.next('8', (o) => o['OrderID'] === order['id'])).toMatchObject({ ExecType: 'F', OrdStatus: '2', Side: '2', ClOrdID: order['id'], LastPx: 65200 });
    await c.logout();
    expect(c.session.logoutText).toBe('');
    expect(c.session.dictionaryErrors).toEqual([]);
  });

  it('refuses a wrong password, a key bound to another account and a second session, each with a Logout saying why', async () => {
    expect(await refusedLogon(options(server, { password: 'wrong' }))).toBe('Invalid Username (553) or Password (554)');
    expect(await refusedLogon(options(server, { sender: 'TAS_100002' }))).toBe('API key demo-key is not bound to account 100002');
    const first = await connectJspurefix(options(server));
    expect(await refusedLogon(options(server))).toBe('Account 100001 already has a live FIX session (one session per account)');
    first.send('D', { ClOrdID: 'after-refusal', Instrument: btc, Side: '2', TransactTime: new Date(), OrderQtyData: { OrderQty: 0.01 }, OrdType: '1' });
    expect(await first.next('8', (o) => o['ClOrdID'] === 'after-refusal')).toMatchObject({ ExecType: 'F' });
    await first.logout();
  });
});

/** A weekly window that opens an hour from now and closes an hour later: closed now, whatever the weekday. */
function windowClosedNow(nowMs: number): { tz: string; open: string; close: string } {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const at = (ms: number): string => {
    const d = new Date(ms);
    return `${days[d.getUTCDay()]} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  };
  return { tz: '+00:00', open: at(nowMs + 3600_000), close: at(nowMs + 2 * 3600_000) };
}

describe('outside session hours', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ config: { fix: { session: windowClosedNow(Date.now()) } } });
  });
  afterAll(async () => { await server.stop(); });

  it('refuses the Logon with a Logout naming the hours', async () => {
    expect(await refusedLogon(options(server))).toMatch(/^Outside session hours: FIX logons are accepted from \w{3} \d{2}:\d{2} to \w{3} \d{2}:\d{2} \(UTC\+00:00\)$/);
  });
});
