// The FIX side of the bot features with jspurefix as the initiator against the real process:
// OrderStatusRequest (H) → 8 with 150=I; OrderMassCancelRequest (q) → r plus one 8 per cancelled
// order, and an r with a reject reason for a scope it does not take; RequestForPositions with
// SubscriptionRequestType 1 streams AP on every position change until 2; a session with
// cancel-on-disconnect cancels its key's orders when the connection drops, never on a clean
// Logout. Every message jspurefix receives passes the stock QuickFIX FIX44 dictionary.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_CERT_FILE } from '../../src/fix/tls-cert.js';
import { startServer, type RunningServer } from '../support/server.js';
import { type ClientOptions, connectJspurefix, type JspurefixClient, LogonRefused } from '../fix-session/support/jspurefix-client.js';
import { rest } from '../stream/support/stream-client.js';

const DEMO_SECRET = 'demo-secret-0123456789abcdef';
const btc = { Symbol: 'BTCUSD' };

let server: RunningServer;

async function consolePost(route: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.console}/console/api/${route}`, {
    method: 'POST', headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return await res.json() as Record<string, unknown>;
}

async function connect(): Promise<JspurefixClient> {
  const ca = fs.readFileSync(path.join(server.dataDir, GENERATED_CERT_FILE), 'utf8');
  const o: ClientOptions = { port: server.fixPort!, ca, sender: 'TAS_100001', username: 'demo-key', password: DEMO_SECRET };
  return connectJspurefix(o);
}

const limit = (clOrdId: string, price: number, symbol = 'BTCUSD') => ({
  ClOrdID: clOrdId, Instrument: { Symbol: symbol }, Side: '1', TransactTime: new Date(), OrderQtyData: { OrderQty: symbol === 'BTCUSD' ? 0.01 : 1000 }, OrdType: '2', Price: price, TimeInForce: '1',
});

beforeAll(async () => {
  server = await startServer({ config: { fix: { session: '24x7', cancel_on_disconnect: true }, prices: { source: 'push' } } });
  await consolePost('quotes', { symbol: 'BTCUSD', bid: 65000, ask: 65010 });
});
afterAll(async () => { await server.stop(); });

describe('FIX order status, mass cancel and position subscriptions', () => {
  it('H answers an 8 with 150=I for an order by ClOrdID or OrderID, and 39=8 103=5 for an unknown one', async () => {
    const c = await connect();
    c.send('D', limit('st-1', 60000));
    const placed = await c.next('8', (o) => o['ClOrdID'] === 'st-1');
    c.send('H', { ClOrdID: 'st-1', Instrument: btc, Side: '1', OrdStatusReqID: 'q-1' });
    expect(await c.next('8', (o) => o['OrdStatusReqID'] === 'q-1')).toMatchObject({
      ExecType: 'I', OrdStatus: '0', OrderID: placed['OrderID'], ClOrdID: 'st-1', Price: 60000, LeavesQty: 0.01, CumQty: 0,
    });
    c.send('F', { OrigClOrdID: 'st-1', ClOrdID: 'st-2', Instrument: btc, Side: '1', TransactTime: new Date(), OrderQtyData: { OrderQty: 0.01 } });
    await c.next('8', (o) => o['ClOrdID'] === 'st-2');
    c.send('H', { ClOrdID: 'whatever', OrderID: placed['OrderID'], Instrument: btc, Side: '1', OrdStatusReqID: 'q-2' });
    expect(await c.next('8', (o) => o['OrdStatusReqID'] === 'q-2')).toMatchObject({ ExecType: 'I', OrdStatus: '4', ClOrdID: 'st-2', LeavesQty: 0 });
    c.send('H', { ClOrdID: 'never-sent', Instrument: btc, Side: '1', OrdStatusReqID: 'q-3' });
    expect(await c.next('8', (o) => o['OrdStatusReqID'] === 'q-3')).toMatchObject({ ExecType: 'I', OrdStatus: '8', OrdRejReason: 5, OrderID: 'NONE' });
    await c.logout();
    expect(c.session.dictionaryErrors).toEqual([]);
  });

  it('q cancels one symbol\'s or all pending orders: an r listing them, then one 8 per order; an unknown scope is an r with a reason', async () => {
    const c = await connect();
    for (const [id, px] of [['mc-1', 60000], ['mc-2', 59000]] as const) c.send('D', limit(id, px));
    c.send('D', limit('mc-3', 1.05, 'EURUSD'));
    for (const id of ['mc-1', 'mc-2', 'mc-3']) await c.next('8', (o) => o['ClOrdID'] === id);

    c.send('q', { ClOrdID: 'mass-1', MassCancelRequestType: '1', Instrument: btc, TransactTime: new Date() });
    const r = await c.next('r', (o) => o['ClOrdID'] === 'mass-1');
    expect(r).toMatchObject({ MassCancelRequestType: '1', MassCancelResponse: '1', TotalAffectedOrders: 2 });
    expect((r['AffectedOrdGrp'] as { NoAffectedOrders: { OrigClOrdID: string }[] }).NoAffectedOrders.map((a) => a.OrigClOrdID)).toEqual(['mc-1', 'mc-2']);
    for (const id of ['mc-1', 'mc-2']) expect(await c.next('8', (o) => o['ClOrdID'] === id && o['ExecType'] === '4')).toMatchObject({ OrdStatus: '4' });

    c.send('q', { ClOrdID: 'mass-2', MassCancelRequestType: '3', TransactTime: new Date() });
    expect(await c.next('r', (o) => o['ClOrdID'] === 'mass-2')).toMatchObject({ MassCancelResponse: '0', MassCancelRejectReason: '0', TotalAffectedOrders: 0 });
    c.send('q', { ClOrdID: 'mass-3', MassCancelRequestType: '1', Instrument: { Symbol: 'NOPE' }, TransactTime: new Date() });
    expect(await c.next('r', (o) => o['ClOrdID'] === 'mass-3')).toMatchObject({ MassCancelResponse: '0', MassCancelRejectReason: '1', Text: 'unknown symbol NOPE' });

    c.send('q', { ClOrdID: 'mass-4', MassCancelRequestType: '7', TransactTime: new Date() });
    expect(await c.next('r', (o) => o['ClOrdID'] === 'mass-4')).toMatchObject({ MassCancelResponse: '7', TotalAffectedOrders: 1 });
    expect(await c.next('8', (o) => o['ClOrdID'] === 'mc-3' && o['ExecType'] === '4')).toMatchObject({ OrdStatus: '4' });
    await c.logout();
    expect(c.session.dictionaryErrors).toEqual([]);
  });

  it('AN with 263=1 streams an AP on every position change until 263=2', async () => {
    const c = await connect();
    const an = (id: string, type: string): Record<string, unknown> => ({
      PosReqID: id, PosReqType: 0, SubscriptionRequestType: type, Parties: { NoPartyIDs: [{ PartyID: '100001', PartyIDSource: 'D', PartyRole: 24 }] },
      Account: '100001', AccountType: 1, ClearingBusinessDate: '20260101', TransactTime: new Date(),
    });
    c.send('AN', an('sub-1', '1'));
    expect(await c.next('AO', (o) => o['PosReqID'] === 'sub-1')).toMatchObject({ PosReqStatus: 0 });
    c.send('D', { ClOrdID: 'ap-1', Instrument: btc, Side: '1', TransactTime: new Date(), OrderQtyData: { OrderQty: 0.02 }, OrdType: '1', TimeInForce: '3' });
    const fill = await c.next('8', (o) => o['ClOrdID'] === 'ap-1');
    const opened = await c.next('AP', (o) => o['UnsolicitedIndicator'] === true && (o['Text'] as string).includes('opened'));
    expect(opened).toMatchObject({ PosReqID: 'sub-1', SubscriptionRequestType: '1', PositionQty: { NoPositions: [{ LongQty: 0.02, ShortQty: 0 }] } });
    const ticket = Number(String(opened['PosMaintRptID']).split('-')[0]);
    expect((await rest(server, { id: 'demo-key', secret: DEMO_SECRET }, 'DELETE', `/positions/${ticket}`)).status).toBe(200);
    expect(await c.next('AP', (o) => (o['Text'] as string).includes('closed (client)'))).toMatchObject({
      UnsolicitedIndicator: true, PosReqID: 'sub-1', PositionQty: { NoPositions: [{ LongQty: 0, ShortQty: 0 }] },
    });
    c.send('AN', an('sub-2', '2'));
    expect(await c.next('AO', (o) => o['PosReqID'] === 'sub-2')).toMatchObject({ PosReqResult: 0, PosReqStatus: 0, Text: 'position updates stopped' });
    c.send('D', { ClOrdID: 'ap-2', Instrument: btc, Side: '1', TransactTime: new Date(), OrderQtyData: { OrderQty: 0.01 }, OrdType: '1', TimeInForce: '3' });
    await c.next('8', (o) => o['ClOrdID'] === 'ap-2');
    // A round trip after it: an H answered means the fill's position events were handled, with no AP.
    c.send('H', { ClOrdID: 'ap-2', Instrument: btc, Side: '1', OrdStatusReqID: 'after' });
    await c.next('8', (o) => o['OrdStatusReqID'] === 'after');
    expect(c.session.received.filter((m) => m.msgType === 'AP')).toEqual([]);
    expect(fill['OrdStatus']).toBe('2');
    await c.logout();
    expect(c.session.dictionaryErrors).toEqual([]);
  });
});

describe('cancel on disconnect (fix.cancel_on_disconnect)', () => {
  it('keeps the orders on a clean Logout, cancels the key\'s orders (reason dead_man) when the connection drops', async () => {
    const clean = await connect();
    clean.send('D', limit('cd-1', 60000));
    const kept = await clean.next('8', (o) => o['ClOrdID'] === 'cd-1');
    await clean.logout();

    // The next session finds it pending, and drops its own connection.
    const dropped = await connect();
    dropped.send('H', { ClOrdID: 'cd-1', OrderID: kept['OrderID'], Instrument: btc, Side: '1', OrdStatusReqID: 'after-logout' });
    expect(await dropped.next('8', (o) => o['OrdStatusReqID'] === 'after-logout')).toMatchObject({ OrdStatus: '0' });
    dropped.send('D', limit('cd-2', 60000));
    const placed = await dropped.next('8', (o) => o['ClOrdID'] === 'cd-2');
    expect(dropped.session.dictionaryErrors).toEqual([]);
    await dropped.drop();

    // The gateway sees the socket close, ends the session and frees the account for the next Logon.
    let watcher: JspurefixClient | null = null;
    for (let i = 0; watcher === null; i++) {
      watcher = await connect().catch((err: unknown) => { if (!(err instanceof LogonRefused) || i > 100) throw err; return null; });
      if (watcher === null) await new Promise((r) => setTimeout(r, 20));
    }
    // Both were placed through the key: both go, the fill of neither.
    for (const [name, id] of [['kept', kept['OrderID']], ['placed', placed['OrderID']]] as const) {
      let status: Record<string, unknown> = {};
      for (let i = 0; status['OrdStatus'] !== '4' && i < 100; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 20));
        watcher.send('H', { ClOrdID: 'w', OrderID: id, Instrument: btc, Side: '1', OrdStatusReqID: `${name}-${i}` });
        status = await watcher.next('8', (o) => o['OrdStatusReqID'] === `${name}-${i}`);
      }
      expect(status).toMatchObject({ OrdStatus: '4', Text: 'dead_man' });
    }
    await watcher.logout();
    expect(watcher.session.dictionaryErrors).toEqual([]);
  });
});
