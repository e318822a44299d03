// Application messages through the real session, desks, shard client and engine (FakeShard):
// D/F/G → 8/9, V → W/Y, AN → AO/AP, the throttle, backpressure, and unsolicited reports of
// changes made elsewhere. Quantities are units (EURUSD: 100000 per lot; BTCUSD: 1 per lot).
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, T0, keyRecord, utc, type Client, type Msg } from './support/harness.js';

let h: Harness;
afterEach(() => {
  expect(h.dictionaryErrors).toEqual([]);
});

const TIME = utc(T0);
const d = (clOrdId: string, rest: string): string => `11=${clOrdId}|60=${TIME}|${rest}`;
const market = (clOrdId: string, side = '1', qty = '100000', symbol = 'EURUSD'): string => d(clOrdId, `55=${symbol}|54=${side}|38=${qty}|40=1`);
const limit = (clOrdId: string, price: string, qty = '100000'): string => d(clOrdId, `55=EURUSD|54=1|38=${qty}|40=2|44=${price}|59=1`);

function session(): Client {
  h = new Harness();
  return h.loggedOn();
}

/** A client sending messages with consecutive numbers from 2. */
function sender(c: Client): (type: string, body: string) => Msg[] {
  let seq = 2;
  return (type, body) => {
    c.send(type, seq++, body);
    return c.take();
  };
}

describe('NewOrderSingle (D)', () => {
  it('fills a market order at the ask: one 8 with 150=F 39=2, quantities in units', () => {
    const c = session();
    const [er, ...more] = sender(c)('D', market('C1'));
    expect(more).toEqual([]);
    expect(Object.fromEntries(er!.fields)).toMatchObject({
      35: '8', 11: 'C1', 150: 'F', 39: '2', 1: '100001', 55: 'EURUSD', 54: '1', 38: '100000', 40: '1', 59: '3', 32: '100000', 31: '1.08510',
      151: '0', 14: '100000', 6: '1.08510',
    });
    expect(er!.get(37)).toMatch(/^\d+$/);
    expect(er!.get(17)).toMatch(/^100001-\d+$/);
  });

  it('accepts pending limit (44) and stop (99) orders with 150=0 39=0 and GTC', () => {
    const c = session();
    const send = sender(c);
    const [lim] = send('D', limit('L1', '1.08000'));
    expect([lim?.get(150), lim?.get(39), lim?.get(44), lim?.get(59), lim?.get(151), lim?.get(14)]).toEqual(['0', '0', '1.08000', '1', '100000', '0']);
    const [stop] = send('D', d('S1', '55=EURUSD|54=1|38=50000|40=3|99=1.09'));
    expect([stop?.get(150), stop?.get(39), stop?.get(99), stop?.get(44), stop?.get(38)]).toEqual(['0', '0', '1.09000', undefined, '50000']);
  });

  it.each([
    ['a quantity that is not whole centilots', market('Q', '1', '1500'), '13', /^invalid_order: OrderQty \(38\) 1500 is not a positive whole number of 0\.01 lots/],
    ['a price with too many decimals', limit('P', '1.080001'), '99', /^invalid_order: Price \(44\) 1\.080001 must be positive with at most 5 decimals/],
    ['an unknown symbol', market('U', '1', '1', 'XYZ'), '1', /^unknown symbol XYZ$/],
    ['another account', `${market('A')}|1=100002`, '15', /^Account \(1\) 100002 is not the account of this session/],
    ['an unsupported side', market('S', '5'), '11', /^Side \(54\) 5 is not supported/],
    ['an unsupported order type', d('T', '55=EURUSD|54=1|38=100000|40=4|44=1.08|99=1.08'), '11', /^OrdType \(40\) 4 is not supported/],
    ['a market order that is not IOC', `${market('I')}|59=1`, '11', /^TimeInForce \(59\) 1 is not supported for market orders/],
    ['a price on a market order', `${market('M')}|44=1.08`, '11', /^Price \(44\) is not allowed on a market order$/],
    ['a volume above the maximum', market('V', '1', '200000000'), '13', /^invalid_order: volume 2000\.00 lots must be from 0\.01 to 100\.00 lots for EURUSD$/],
    ['a symbol outside its session', market('X', '1', '100', 'XAUUSD'), '2', /^market_closed: XAUUSD is outside its trading session$/],
  ])('rejects %s with 8 150=8 39=8, 103 and a 58 saying why', (_name, body, reason, text) => {
    const c = session();
    const [er] = sender(c)('D', body);
    expect([er?.type, er?.get(150), er?.get(39), er?.get(37), er?.get(103)]).toEqual(['8', '8', '8', 'NONE', reason]);
    expect(er?.get(58)).toMatch(text);
  });

  it('answers a limit order without Price with j 380=5 (conditionally required)', () => {
    const c = session();
    const [j] = sender(c)('D', d('NP', '55=EURUSD|54=1|38=100000|40=2'));
    expect([j?.type, j?.get(380), j?.get(372)]).toEqual(['j', '5', 'D']);
  });

  it('refuses a repeated ClOrdID on the session and, after a reconnect, through the engine (103=6)', () => {
    const c = session();
    const send = sender(c);
    send('D', market('DUP'));
    expect(send('D', market('DUP'))[0]?.get(103)).toBe('6');
    c.send('5', 4);
    const again = h.loggedOn();
    again.send('D', 2, market('DUP'));
    const er = again.one();
    expect([er.get(150), er.get(103)]).toEqual(['8', '6']);
    expect(er.get(58)).toMatch(/^duplicate_client_id: /);
  });

  it('takes ClOrdIDs across the byte space as distinct client ids, each echoed byte for byte and refused when repeated', () => {
    const c = session();
    const send = sender(c);
    // Every byte but SOH ('|' stands for SOH in these frames): read as Latin-1, so byte 0xE9 is
    // U+00E9, the client id a REST client_id "\u00e9" names too.
    const ids = Array.from({ length: 254 }, (_, i) => i + 2).filter((b) => b !== 0x7c).map((b) => `x${String.fromCharCode(b)}`);
    const orders = new Map<string, string>();
    for (const id of ids) {
      const [er] = send('D', market(id, '1', '1000'));
      expect([er?.get(150), er?.get(11)], JSON.stringify(id)).toEqual(['F', id]);
      orders.set(id, er!.get(37)!);
      h.clock.advance(25);
    }
    expect(new Set(orders.values()).size).toBe(ids.length);
    for (const id of ids.filter((_, i) => i % 17 === 0)) {
      const [er] = send('D', market(id, '1', '1000'));
      expect([er?.get(150), er?.get(103)]).toEqual(['8', '6']);
      h.clock.advance(25);
    }
  });

  it('refuses orders of a key without the trade scope', () => {
    h = new Harness();
    h.keys.records.set('key-ro', keyRecord('key-ro', '100003', { scopes: ['read'] }));
    const c = h.loggedOn('TAS_100003', 'key-ro');
    c.send('D', 2, market('RO'));
    expect(c.one().get(58)).toBe('forbidden: API key key-ro lacks the trade scope');
  });

  it('refuses orders while the account kill switch is active (103=99, kill_switch_active)', () => {
    const c = session();
    h.shard.other({ kind: 'killSwitch', login: '100001', scope: 'account', active: true });
    h.pump();
    const [er] = sender(c)('D', market('K'));
    expect([er?.get(150), er?.get(103)]).toEqual(['8', '99']);
    expect(er?.get(58)).toMatch(/^kill_switch_active: /);
  });

  it('answers every order with busy when the shard ring is full, and the accepted ones once it drains', () => {
    h = new Harness({ shardRingBytes: 512 });
    const c = h.loggedOn();
    h.shard.stalled = true;
    for (let i = 0; i < 10; i++) c.send('D', 2 + i, market(`B${i}`, '1', '1000'));
    const busy = c.take();
    expect(busy.length).toBeGreaterThan(0);
    for (const er of busy) expect([er.get(150), er.get(58)]).toEqual(['8', 'busy: the shard of account 100001 is saturated; retry shortly']);
    h.shard.stalled = false;
    h.pump();
    const filled = c.take();
    expect(filled.length + busy.length).toBe(10);
    for (const er of filled) expect(er.get(150)).toBe('F');
  });
});

describe('OrderCancelRequest (F) and OrderCancelReplaceRequest (G)', () => {
  const f = (clOrdId: string, orig: string, extra = ''): string => `41=${orig}|11=${clOrdId}|55=EURUSD|54=1|60=${TIME}${extra}`;
  const g = (clOrdId: string, orig: string, price: string, qty: string, type = '2'): string =>
    `41=${orig}|11=${clOrdId}|55=EURUSD|54=1|60=${TIME}|38=${qty}|40=${type}|${type === '2' ? '44' : '99'}=${price}`;

  it('cancels by OrigClOrdID (8 150=4 39=4 with 11 and 41), then refuses a second cancel as too late (9 102=0)', () => {
    const c = session();
    const send = sender(c);
    const [placed] = send('D', limit('L1', '1.08000'));
    const [cancelled] = send('F', f('F1', 'L1'));
    expect([cancelled?.get(150), cancelled?.get(39), cancelled?.get(11), cancelled?.get(41), cancelled?.get(37)]).toEqual(['4', '4', 'F1', 'L1', placed?.get(37)]);
    const [rej] = send('F', f('F2', 'F1'));
    expect([rej?.type, rej?.get(434), rej?.get(102), rej?.get(39), rej?.get(37)]).toEqual(['9', '1', '0', '4', placed?.get(37)]);
    expect(rej?.get(58)).toMatch(/^invalid_order: order \d+ is cancelled/);
  });

  it('cancels by OrderID (37) and refuses an unknown order (9 102=1, 37=NONE, 39=8)', () => {
    const c = session();
    const send = sender(c);
    const [placed] = send('D', limit('L1', '1.08000'));
    const [cancelled] = send('F', f('F1', 'whatever', `|37=${placed?.get(37)}`));
    expect(cancelled?.get(150)).toBe('4');
    const [rej] = send('F', f('F2', 'NOPE'));
    expect([rej?.type, rej?.get(434), rej?.get(102), rej?.get(37), rej?.get(39)]).toEqual(['9', '1', '1', 'NONE', '8']);
  });

  it('resolves an order placed before a reconnect through the engine\'s client ids', () => {
    const c = session();
    sender(c)('D', limit('OLD', '1.08000'));
    c.send('5', 3);
    const again = h.loggedOn();
    again.send('F', 2, f('F1', 'OLD'));
    expect(again.one().get(150)).toBe('4');
  });

  it('replaces price and quantity (8 150=5 39=0), and the new ClOrdID names the order after', () => {
    const c = session();
    const send = sender(c);
    send('D', limit('L1', '1.08000'));
    const [replaced] = send('G', g('G1', 'L1', '1.07500', '200000'));
    expect([replaced?.get(150), replaced?.get(39), replaced?.get(11), replaced?.get(41), replaced?.get(44), replaced?.get(38), replaced?.get(151)])
      .toEqual(['5', '0', 'G1', 'L1', '1.07500', '200000', '200000']);
    expect(send('F', f('F1', 'G1'))[0]?.get(150)).toBe('4');
  });

  it.each([
    ['a change of OrdType', (o: string) => g('G1', o, '1.09', '100000', '3'), /OrdType \(40\) cannot change/, '99'],
    ['a price on the wrong side of the market', (o: string) => g('G1', o, '1.09', '100000'), /^invalid_order: /, '99'],
    ['a quantity that is not whole centilots', (o: string) => g('G1', o, '1.08', '1500'), /OrderQty \(38\) 1500/, '99'],
    ['an unknown order', () => g('G1', 'NOPE', '1.08', '100000'), /^not_found: /, '1'],
  ])('refuses a replace with %s (9 434=2)', (_name, body, text, reason) => {
    const c = session();
    const send = sender(c);
    send('D', limit('L1', '1.08000'));
    const [rej] = send('G', body('L1'));
    expect([rej?.type, rej?.get(434), rej?.get(102)]).toEqual(['9', '2', reason]);
    expect(rej?.get(58)).toMatch(text);
  });

  it('answers two replaces of one order that the shard takes in one batch with one report each', () => {
    const c = session();
    const send = sender(c);
    send('D', limit('L1', '1.08000'));
    h.shard.stalled = true;
    expect(send('G', g('G1', 'L1', '1.07900', '100000'))).toEqual([]);
    expect(send('G', g('G2', 'L1', '1.07800', '300000'))).toEqual([]);
    h.shard.stalled = false;
    h.pump();
    expect(c.take().map((m) => [m.get(150), m.get(11), m.get(44), m.get(38)])).toEqual([['5', 'G1', '1.07900', '100000'], ['5', 'G2', '1.07800', '300000']]);
  });

  it('refuses to replace a filled order (9 102=0, 39=2)', () => {
    const c = session();
    const send = sender(c);
    send('D', market('M1'));
    const [rej] = send('G', `41=M1|11=G1|55=EURUSD|54=1|60=${TIME}|38=100000|40=2|44=1.08`);
    expect([rej?.type, rej?.get(434), rej?.get(102), rej?.get(39)]).toEqual(['9', '2', '0', '2']);
    expect(rej?.get(58)).toMatch(/^invalid_order: order \d+ is filled: only pending orders can be cancelled or replaced$/);
  });
});

describe('throttle: 50 messages per second, burst 100', () => {
  it('rejects the 101st application message of a burst by kind, and refills at 50/s', () => {
    const c = session();
    const send = sender(c);
    const snapshot = '262=m|263=0|264=1|267=1|269=0|146=1|55=EURUSD';
    for (let i = 0; i < 100; i++) expect(send('V', snapshot).map((m) => m.type)).toEqual(['W']);
    const [j] = send('V', snapshot);
    expect([j?.type, j?.get(380), j?.get(372), j?.get(58)]).toEqual(['j', '99', 'V', 'rate_limited: more than 50 messages per second (burst 100) on this session']);
    const [er] = send('D', market('T1'));
    expect([er?.type, er?.get(150), er?.get(58)]).toEqual(['8', '8', 'rate_limited: more than 50 messages per second (burst 100) on this session']);
    const [cxl] = send('F', `41=T0|11=T2|55=EURUSD|54=1|60=${TIME}`);
    expect([cxl?.type, cxl?.get(58)]).toEqual(['9', 'rate_limited: more than 50 messages per second (burst 100) on this session']);
    expect(send('1', '112=ADMIN').map((m) => m.get(112))).toEqual(['ADMIN']);
    h.clock.advance(1000);
    for (let i = 0; i < 50; i++) expect(send('V', snapshot).map((m) => m.type)).toEqual(['W']);
    expect(send('V', snapshot)[0]?.type).toBe('j');
  });
});

describe('market data (V → W / Y)', () => {
  const v = (id: string, type: string, symbols = ['EURUSD'], extra = '|264=1|265=0|267=2|269=0|269=1'): string =>
    `262=${id}|263=${type}${extra}|146=${symbols.length}|${symbols.map((s) => `55=${s}`).join('|')}`;

  it('answers a snapshot request with one W per symbol and streams nothing after', () => {
    const c = session();
    const got = sender(c)('V', v('m1', '0', ['EURUSD', 'BTCUSD']));
    expect(got.map((m) => [m.type, m.get(262), m.get(55), m.all(269), m.all(270)])).toEqual([
      ['W', 'm1', 'EURUSD', ['0', '1'], ['1.08500', '1.08510']],
      ['W', 'm1', 'BTCUSD', ['0', '1'], ['65000.00', '65020.00']],
    ]);
    h.tick('EURUSD', 108_600, 108_610);
    expect(c.take()).toEqual([]);
  });

  it('streams a W on every tick of subscribed symbols until 263=2', () => {
    const c = session();
    const send = sender(c);
    expect(send('V', v('m1', '1', ['EURUSD'], '|264=0|265=0|267=1|269=1')).map((m) => m.all(270))).toEqual([['1.08510']]);
    h.tick('EURUSD', 108_600, 108_610);
    h.tick('BTCUSD', 6_500_100, 6_502_100);
    h.tick('EURUSD', 108_700, 108_720);
    expect(c.take().map((m) => [m.get(55), m.all(269), m.all(270)])).toEqual([['EURUSD', ['1'], ['1.08610']], ['EURUSD', ['1'], ['1.08720']]]);
    expect(send('V', v('m1', '2'))).toEqual([]);
    h.tick('EURUSD', 108_800, 108_810);
    expect(c.take()).toEqual([]);
  });

  it('conflates ticks while the connection is backed up and sends the latest once it drains', () => {
    const c = session();
    sender(c)('V', v('m1', '1'));
    c.backlogged = true;
    h.tick('EURUSD', 108_600, 108_610);
    h.tick('EURUSD', 108_700, 108_710);
    expect(c.take()).toEqual([]);
    c.backlogged = false;
    c.session.writable();
    h.gateway.flush();
    expect(c.take().map((m) => m.all(270))).toEqual([['1.08700', '1.08710']]);
  });

  it.each([
    ['an unknown symbol', v('m1', '0', ['EURUSD', 'XYZ']), '0', 'unknown symbol XYZ'],
    ['market depth 5', v('m1', '0', ['EURUSD'], '|264=5|267=1|269=0'), '5', 'MarketDepth (264) must be 0 or 1: this gateway publishes the top of book'],
    ['incremental updates', v('m1', '1', ['EURUSD'], '|264=1|265=1|267=1|269=0'), '6', 'MDUpdateType (265) must be 0: updates are full refreshes (W)'],
    ['trade entries', v('m1', '0', ['EURUSD'], '|264=1|267=1|269=2'), '8', 'MDEntryType (269) 2 is not supported: 0 (bid) and 1 (offer)'],
    ['an unknown subscription', v('zz', '2'), undefined, 'no subscription with MDReqID (262) zz'],
  ])('rejects %s with Y', (_name, body, reason, text) => {
    const c = session();
    const [y] = sender(c)('V', body);
    expect([y?.type, y?.get(281), y?.get(58)]).toEqual(['Y', reason, text]);
  });

  it('rejects a second live subscription with the same MDReqID (281=1)', () => {
    const c = session();
    const send = sender(c);
    send('V', v('m1', '1'));
    expect(send('V', v('m1', '1')).map((m) => [m.type, m.get(281)])).toEqual([['Y', '1']]);
  });
});

describe('positions (AN → AO, AP)', () => {
  it('answers AO 728=2 without positions, and AO 728=0 plus one AP per position in units', () => {
    const c = session();
    const send = sender(c);
    const [none] = send('AN', '710=p1|724=0');
    expect([none?.type, none?.get(728), none?.get(729), none?.get(727), none?.get(710)]).toEqual(['AO', '2', '0', '0', 'p1']);
    send('D', market('B1', '1', '100000'));
    send('D', market('S1', '2', '0.5', 'BTCUSD'));
    h.tick('EURUSD', 108_600, 108_610);
    const [ao, ...aps] = send('AN', '710=p2|724=0|1=100001');
    expect([ao?.type, ao?.get(728), ao?.get(727)]).toEqual(['AO', '0', '2']);
    expect(aps.map((m) => [m.type, m.get(1), m.get(55), m.get(704), m.get(705), m.get(730), m.get(727), m.get(710)])).toEqual([
      ['AP', '100001', 'EURUSD', '100000', '0', '1.08510', '2', 'p2'],
      ['AP', '100001', 'BTCUSD', '0', '0.5', '65000.00', '2', 'p2'],
    ]);
    expect([aps[0]?.get(707), aps[0]?.get(708), aps[0]?.get(15)]).toEqual(['FMTM', '90.00', 'USD']);
  });

  it.each([
    ['another account', '710=p|1=100002', '3'],
    ['trades instead of positions', '710=p|724=1', '4'],
  ])('refuses a request for %s with AO 729=2', (_name, body, result) => {
    const c = session();
    const [ao] = sender(c)('AN', body);
    expect([ao?.type, ao?.get(728), ao?.get(729)]).toEqual(['AO', result, '2']);
  });

  it('needs the read scope', () => {
    h = new Harness();
    h.keys.records.set('key-to', keyRecord('key-to', '100003', { scopes: ['trade'] }));
    const c = h.loggedOn('TAS_100003', 'key-to');
    c.send('AN', 2, '710=p');
    expect([c.one().get(728)]).toEqual(['3']);
  });
});

describe('unsolicited ExecutionReports (changes made elsewhere)', () => {
  it('reports orders placed elsewhere, pending fills, SL closes and kill-switch cancels, each once with a unique ExecID', () => {
    const c = session();
    const send = sender(c);
    send('D', limit('L1', '1.08000'));
    h.shard.other({
      kind: 'place', login: '100001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 100, sizing: null, price: null, sl: 108_000,
      tp: null, clientId: 'rest-1', source: 'api', keyId: 'other', webhookId: null,
    });
    h.pump();
    const [rest] = c.take();
    expect([rest?.get(150), rest?.get(11), rest?.get(32)]).toEqual(['F', 'rest-1', '100000']);
    h.tick('EURUSD', 107_950, 107_960);
    const triggered = c.take();
    const slClose = triggered.find((m) => m.get(58)?.includes('(sl)'));
    expect([slClose?.get(150), slClose?.get(39), slClose?.get(54), slClose?.get(32), slClose?.get(31)]).toEqual(['F', '2', '2', '100000', '1.07950']);
    expect(slClose?.get(58)).toMatch(/^position \d+ closed \(sl\), profit -560\.00$/);
    expect(slClose?.get(11)).toBe(slClose?.get(37));
    expect(slClose?.get(37)).toMatch(/^P\d+-\d+$/);
    const fill = triggered.find((m) => m.get(11) === 'L1');
    expect([triggered.length, fill?.get(150), fill?.get(31), fill?.get(44)]).toEqual([2, 'F', '1.07960', '1.08000']);
    send('D', limit('L2', '1.07000'));
    h.shard.other({ kind: 'killSwitch', login: '100001', scope: 'user', active: true });
    h.pump();
    const killed = c.take();
    expect(killed.map((m) => m.get(150))).toEqual(['F', '4']);
    expect(killed[1]?.get(11)).toBe('L2');
    expect(killed[1]?.get(58)).toBe('kill_switch');
  });

  it('sends one ExecutionReport per own request, never an unsolicited copy', () => {
    const c = session();
    const send = sender(c);
    const all = [...send('D', market('A1')), ...send('D', limit('A2', '1.08')), ...send('F', `41=A2|11=A3|55=EURUSD|54=1|60=${TIME}`)];
    expect(all.map((m) => m.get(150))).toEqual(['F', '0', '4']);
    expect(new Set(all.map((m) => m.get(17))).size).toBe(3);
  });

  it('stops watching the account when the session ends', () => {
    const c = session();
    expect(h.shard.watched.has('100001')).toBe(true);
    c.send('5', 2);
    h.pump();
    expect(h.shard.watched.has('100001')).toBe(false);
  });
});
