// Session-layer conformance, modelled on the QuickFIX/J and QuickFIX FIX 4.4 server acceptance
// scripts (definitions/server/fix44/*.def; the case ids are in the test names). Bytes in, bytes
// out, on an injected clock: the 30/45/75 s timers run in no time.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, T0, frame, utc, type Client } from './support/harness.js';

let h: Harness;
afterEach(() => {
  expect(h.dictionaryErrors).toEqual([]);
});

function fresh(): Harness {
  h = new Harness();
  return h;
}

describe('logon (1a-1e)', () => {
  it('answers a valid Logon with Logon 98=0 108=30 141=Y, MsgSeqNum 1 (1a)', () => {
    const c = fresh().connect();
    c.logon();
    const logon = c.one();
    expect(logon.type).toBe('A');
    expect([logon.seq, logon.get(49), logon.get(56), logon.get(98), logon.get(108), logon.get(141)]).toEqual([1, 'TASGW', 'TAS_100001', '0', '30', 'Y']);
    expect(c.session.state).toBe('active');
  });

  it('answers a Logon above MsgSeqNum 1 with Logon then ResendRequest 7=1 16=0 (1a too high)', () => {
    const c = fresh().connect();
    c.logon(5);
    const [logon, rr] = c.take();
    expect(logon?.type).toBe('A');
    expect([rr?.type, rr?.get(7), rr?.get(16)]).toEqual(['2', '1', '0']);
    for (let seq = 1; seq <= 4; seq++) c.send('0', seq);
    c.send('1', 6, '112=AFTER');
    expect(c.one().get(112)).toBe('AFTER');
  });

  it('refuses a second session of the same account and keeps the first (1b, AlreadyLoggedOn)', () => {
    fresh();
    const first = h.loggedOn();
    const second = h.connect();
    second.logon();
    const logout = second.one();
    expect([logout.type, logout.get(58)]).toEqual(['5', 'Account 100001 already has a live FIX session (one session per account)']);
    expect(second.closed).toBe(true);
    first.send('1', 2, '112=STILL');
    expect(first.one().get(112)).toBe('STILL');
  });

  it('disconnects a Logon whose SendingTime is off by more than 120 s (1d)', () => {
    const c = fresh().connect();
    c.send('A', 1, '98=0|108=30|141=Y|553=key-1|554=x', { sendingTimeMs: T0 - 121_000 });
    const logout = c.one();
    expect(logout.type).toBe('5');
    expect(logout.get(58)).toMatch(/^Invalid Logon message: SendingTime accuracy problem/);
    expect(c.closed).toBe(true);
  });

  it('answers a frame of another FIX version with Logout "Incorrect BeginString" (1d, 2i)', () => {
    const c = fresh().connect();
    c.sendRaw(frame(`35=A|34=1|49=TAS_100001|52=${utc(T0)}|56=TASGW|98=0|108=30|`, 'FIX.4.2'));
    expect(c.one().get(58)).toBe('Incorrect BeginString: this gateway speaks FIX.4.4 only');
    expect(c.closed).toBe(true);
  });

  it('disconnects when the first message is not a Logon (1e)', () => {
    const c = fresh().connect();
    c.send('0', 1);
    const logout = c.one();
    expect([logout.get(58), logout.get(56), logout.get(49)]).toEqual(['First message must be a Logon (35=A), received 35=0', 'TAS_100001', 'TASGW']);
    expect(c.closed).toBe(true);
  });

  it.each([
    ['a wrong TargetCompID (1c)', { target: 'DLSI' }, '', 'TargetCompID (56) must be TASGW, received DLSI'],
    ['98=1', {}, '98=1|108=30|141=Y|553=key-1|554=s', 'EncryptMethod (98) must be 0 (none; TLS encrypts the connection), received 1'],
    ['108=20', {}, '98=0|108=20|141=Y|553=key-1|554=s', 'HeartBtInt (108) must be 30, received 20'],
    ['no 141', {}, '98=0|108=30|553=key-1|554=s', 'ResetSeqNumFlag (141) must be Y: sequence numbers restart at 1 on every Logon'],
    ['no Username', {}, '98=0|108=30|141=Y|554=s', 'Username (553) is required: the API key id'],
    ['no Password', {}, '98=0|108=30|141=Y|553=key-1', 'Password (554) is required: the API key secret'],
    ['a negative HeartBtInt (QFJ648)', {}, '98=0|108=-1|141=Y|553=key-1|554=s', 'Invalid Logon message: Value is incorrect (out of range) for this tag: HeartBtInt (108)'],
  ])('refuses a Logon with %s: Logout saying why, then disconnect', (_name, header, body, text) => {
    const c = fresh().connect();
    c.send('A', 1, body === '' ? '98=0|108=30|141=Y|553=key-1|554=s' : body, header);
    expect(c.one().get(58)).toBe(text);
    expect(c.closed).toBe(true);
  });

  it.each([
    ['an unknown key', 'TAS_100001', { key: 'nope' }, {}, 'Invalid Username (553) or Password (554)'],
    ['a wrong secret', 'TAS_100001', { secret: 'wrong' }, {}, 'Invalid Username (553) or Password (554)'],
    ['a revoked key', 'TAS_100001', {}, { revokedAt: T0 - 1 }, 'Invalid Username (553) or Password (554)'],
    ['a paused key', 'TAS_100001', {}, { status: 'Paused' as const }, 'API key key-1 is paused'],
    ['an expired key', 'TAS_100001', {}, { expiresAt: T0 }, 'API key key-1 is expired'],
    ['a key of another account', 'TAS_100002', {}, {}, 'API key key-1 is not bound to account 100002'],
    ['an address off the whitelist', 'TAS_100001', {}, { ipWhitelist: ['10.0.0.0/8'] }, 'Address 127.0.0.1 is not on the IP whitelist of API key key-1'],
    ['a SenderCompID without the prefix', 'OTHER_100001', {}, {}, 'SenderCompID (49) must be TAS_<account login>, received OTHER_100001'],
  ])('refuses a Logon with %s', (_name, sender, logon, keyChange, text) => {
    fresh();
    h.keys.records.set('key-1', { ...h.keys.records.get('key-1')!, ...keyChange });
    const c = h.connect(sender);
    c.logon(1, logon);
    expect(c.one().get(58)).toBe(text);
    expect(c.closed).toBe(true);
  });

  it('accepts a whitelisted address', () => {
    fresh();
    h.keys.records.set('key-1', { ...h.keys.records.get('key-1')!, ipWhitelist: ['10.0.0.0/8'] });
    const c = h.connect('TAS_100001', '::ffff:10.1.2.3');
    c.logon();
    expect(c.one().type).toBe('A');
  });

  it('refuses Logons outside the session hours and accepts them inside (injected clock)', () => {
    h = new Harness({ hours: { tz: '+00:00', open: 'Wed 13:00', close: 'Wed 14:00' } });
    const early = h.connect();
    early.logon();
    expect(early.one().get(58)).toBe('Outside session hours: FIX logons are accepted from Wed 13:00 to Wed 14:00 (UTC+00:00)');
    h.clock.advance(3600_000);
    const inside = h.connect();
    inside.logon();
    expect(inside.one().type).toBe('A');
  });

  it('logs a session out when its key is paused while logged on', () => {
    const c = fresh().loggedOn();
    h.keys.records.set('key-1', { ...h.keys.records.get('key-1')!, status: 'Paused' });
    h.gateway.recheckKeys();
    h.gateway.flush();
    expect(c.one().get(58)).toBe('API key key-1 is paused');
    expect(c.session.state).toBe('loggingOut');
  });

  it('disconnects a connection that sends no Logon within the logon timeout', () => {
    const c = fresh().connect();
    h.clock.advance(4999);
    c.timer();
    expect(c.closed).toBe(false);
    h.clock.advance(1);
    c.timer();
    expect(c.take()).toEqual([]);
    expect(c.closed).toBe(true);
  });

  it('answers a second Logon on a live session with Logout and disconnects', () => {
    const c = fresh().loggedOn();
    c.logon(2);
    expect(c.one().get(58)).toBe('Logon received on a session that is already logged on');
    expect(c.closed).toBe(true);
  });
});

describe('MsgSeqNum (2a-2c, 10, 20)', () => {
  it('sends one ResendRequest for a gap and processes the early message once the gap is filled (2b)', () => {
    const c = fresh().loggedOn();
    for (const seq of [2, 3, 4]) c.send('0', seq);
    c.send('1', 10, '112=TEN');
    const rr = c.one();
    expect([rr.type, rr.get(7), rr.get(16)]).toEqual(['2', '5', '0']);
    c.send('1', 11, '112=ELEVEN');
    expect(c.take()).toEqual([]);
    for (const seq of [5, 6, 7, 8]) c.send('0', seq);
    expect(c.take()).toEqual([]);
    c.send('0', 9);
    expect(c.take().map((m) => m.get(112))).toEqual(['TEN', 'ELEVEN']);
    c.send('1', 12, '112=NEXT');
    expect(c.one().get(112)).toBe('NEXT');
  });

  it('logs out and disconnects on MsgSeqNum too low without PossDup (2c)', () => {
    const c = fresh().loggedOn();
    for (const seq of [2, 3, 4]) c.send('0', seq);
    c.send('0', 2);
    const logout = c.one();
    expect([logout.type, logout.get(58)]).toEqual(['5', 'MsgSeqNum too low, expecting 5 but received 2']);
    expect(c.closed).toBe(true);
  });

  it('answers a ResendRequest that arrives out of sequence at once (20)', () => {
    const c = fresh().loggedOn();
    c.send('1', 2, '112=A');
    c.send('1', 3, '112=B');
    c.take();
    c.send('0', 7);
    expect(c.one().get(7)).toBe('4');
    c.send('2', 8, '7=2|16=3');
    const fill = c.one();
    expect([fill.type, fill.seq, fill.get(43), fill.get(123), fill.get(36)]).toEqual(['4', 2, 'Y', 'Y', '4']);
    for (const seq of [4, 5, 6]) c.send('0', seq, '', { possDup: true, origSendingTimeMs: T0 });
    c.send('1', 9, '112=AFTER');
    expect(c.one().get(112)).toBe('AFTER');
  });

  it('treats a GapFill above the expected number as a gap (10 greater)', () => {
    const c = fresh().loggedOn();
    c.send('4', 10, '36=20|123=Y');
    expect(c.one().get(7)).toBe('2');
  });

  it('ignores a PossDup GapFill below the expected number and logs out without PossDup (10 less)', () => {
    const c = fresh().loggedOn();
    c.send('4', 1, '36=20|123=Y', { possDup: true, origSendingTimeMs: T0 - 1000 });
    c.send('1', 2, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
    c.send('4', 1, '36=20|123=Y');
    expect(c.one().get(58)).toBe('MsgSeqNum too low, expecting 3 but received 1');
    expect(c.closed).toBe(true);
  });

  it('rejects a GapFill whose NewSeqNo is not above its own MsgSeqNum', () => {
    const c = fresh().loggedOn();
    c.send('4', 2, '36=2|123=Y');
    const reject = c.one();
    expect([reject.type, reject.get(45), reject.get(371), reject.get(373)]).toEqual(['3', '2', '36', '5']);
  });
});

describe('SequenceReset-Reset (11a-11c)', () => {
  it('moves the expected number up, ignoring MsgSeqNum (11a)', () => {
    const c = fresh().loggedOn();
    c.send('4', 0, '36=25');
    c.send('1', 25, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
    c.send('4', 0, '36=50|123=N');
    c.send('1', 50, '112=AGAIN');
    expect(c.one().get(112)).toBe('AGAIN');
  });

  it('accepts NewSeqNo equal to the expected number (11b)', () => {
    const c = fresh().loggedOn();
    c.send('4', 0, '36=2');
    expect(c.take()).toEqual([]);
    c.send('1', 2, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
  });

  it('rejects NewSeqNo below the expected number with 373=5 on tag 36 and changes nothing (11c)', () => {
    const c = fresh().loggedOn();
    c.send('4', 0, '36=1');
    const reject = c.one();
    expect([reject.type, reject.get(45), reject.get(371), reject.get(372), reject.get(373)]).toEqual(['3', '0', '36', '4', '5']);
    c.send('1', 2, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
  });
});

describe('garbled messages (2d, 2m, 3b, 3c, 2t)', () => {
  it('drops bad CheckSum and BodyLength silently without consuming the number', () => {
    const c = fresh().loggedOn();
    const good = frame(`35=1|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|112=OK|`);
    const badSum = Buffer.from(good);
    badSum[badSum.length - 2] = badSum[badSum.length - 2] === 0x30 ? 0x31 : 0x30;
    c.sendRaw(badSum);
    c.sendRaw(Buffer.from(good.toString('latin1').replace('9=', '9=1'), 'latin1'));
    expect(c.take()).toEqual([]);
    c.sendRaw(good);
    expect(c.one().get(112)).toBe('OK');
  });

  it('asks for a garbled message once a later one shows the gap (3c)', () => {
    const c = fresh().loggedOn();
    c.sendRaw(Buffer.from(`8=FIX.4.4\x019=52\x0135=0\x0134=2\x014garbled9=TAS_100001\x0152=x\x0110=000\x01`, 'latin1'));
    c.send('0', 3);
    expect([c.one().get(7)]).toEqual(['2']);
  });

  it('ignores a message whose third field is not MsgType (2t)', () => {
    const c = fresh().loggedOn();
    c.sendRaw(frame(`34=2|35=0|49=TAS_100001|52=${utc(T0)}|56=TASGW|`));
    c.send('1', 2, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
  });

  it('resynchronises on the next message behind garbage bytes in the same read', () => {
    const c = fresh().loggedOn();
    c.sendRaw(Buffer.concat([Buffer.from('\x00\xffgarbage8=FIXnot\x01', 'latin1'), frame(`35=1|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|112=X|`)]));
    expect(c.one().get(112)).toBe('X');
  });
});

describe('PossDup and SendingTime (2e-2g, 2o)', () => {
  it('ignores a PossDup of a message already received and processes one not yet received (2e)', () => {
    const c = fresh().loggedOn();
    c.send('0', 2);
    c.send('1', 2, '112=DUP', { possDup: true, origSendingTimeMs: T0 });
    expect(c.take()).toEqual([]);
    c.send('1', 3, '112=NEW', { possDup: true, origSendingTimeMs: T0 });
    expect(c.one().get(112)).toBe('NEW');
  });

  it('rejects OrigSendingTime later than SendingTime (373=10) and logs out (2f)', () => {
    const c = fresh().loggedOn();
    c.send('0', 2);
    c.send('0', 2, '', { possDup: true, origSendingTimeMs: T0 + 10_000 });
    const [reject, logout] = c.take();
    expect([reject?.type, reject?.get(45), reject?.get(373), reject?.get(371)]).toEqual(['3', '2', '10', '122']);
    expect([logout?.type, logout?.get(58)]).toEqual(['5', 'SendingTime accuracy problem']);
    c.send('5', 3);
    expect(c.closed).toBe(true);
  });

  it('rejects PossDup without OrigSendingTime (373=1) without consuming a too-low number (2g)', () => {
    const c = fresh().loggedOn();
    c.send('0', 2);
    c.send('0', 3);
    c.send('0', 2, '', { possDup: true });
    const reject = c.one();
    expect([reject.type, reject.get(45), reject.get(371), reject.get(373)]).toEqual(['3', '2', '122', '1']);
    c.send('1', 4, '112=HELLO');
    expect(c.one().get(112)).toBe('HELLO');
  });

  it.each([['early', -121_000], ['late', 121_000]])('rejects a SendingTime 121 s %s (373=10) and logs out (2o)', (_name, skew) => {
    const c = fresh().loggedOn();
    c.send('0', 2, '', { sendingTimeMs: T0 + skew });
    const [reject, logout] = c.take();
    expect([reject?.type, reject?.get(373), reject?.get(371), reject?.get(372)]).toEqual(['3', '10', '52', '0']);
    expect(logout?.type).toBe('5');
    expect(c.session.state).toBe('loggingOut');
    h.clock.advance(2000);
    c.timer();
    expect(c.closed).toBe(true);
  });
});

describe('CompIDs and message structure (2k, 2q, 2r, 14a-14i)', () => {
  it.each([['SenderCompID', { sender: 'WT' }, '49'], ['TargetCompID', { target: 'DLSI' }, '56']])(
    'rejects a wrong %s (373=9), logs out and waits for the Logout (2k)', (_name, header, tag) => {
      const c = fresh().loggedOn();
      c.send('D', 2, '11=ID|21=3|40=1|54=1|55=EURUSD|60=20260304-12:00:00|38=1000', header);
      const [reject, logout] = c.take();
      expect([reject?.type, reject?.get(373), reject?.get(371), reject?.get(372)]).toEqual(['3', '9', tag, 'D']);
      expect([logout?.type, logout?.get(58)]).toEqual(['5', 'CompID problem']);
      c.send('5', 3);
      expect(c.take()).toEqual([]);
      expect(c.closed).toBe(true);
    });

  it('rejects an invalid MsgType with 373=11 and goes on (2q)', () => {
    const c = fresh().loggedOn();
    c.send('*', 2);
    const reject = c.one();
    expect([reject.type, reject.get(45), reject.get(372), reject.get(373), reject.get(58)]).toEqual(['3', '2', '*', '11', 'Invalid MsgType']);
    c.send('1', 3, '112=NEXT');
    expect(c.one().get(112)).toBe('NEXT');
  });

  it('answers a FIX44 message type it does not support with j 380=3 (2r)', () => {
    const c = fresh().loggedOn();
    c.send('8', 2, '37=id|17=id|150=0|39=0|55=EURUSD|54=1|151=100|14=0|6=0');
    const j = c.one();
    expect([j.type, j.get(45), j.get(372), j.get(380)]).toEqual(['j', '2', '8', '3']);
  });

  it.each([
    ['a header field missing (14b)', '0', `35=0|34=2|49=TAS_100001|52=${utc(T0)}|`, ['1', '56']],
    ['a required body field missing (14b)', 'D', `35=D|49=TAS_100001|34=2|56=TASGW|52=${utc(T0)}|40=1|60=${utc(T0)}|54=1|21=3|11=id|38=1000|`, ['1', '55']],
    ['header fields after the body (14g)', 'D', `35=D|11=id|21=3|40=1|54=1|55=EURUSD|60=${utc(T0)}|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|`, ['14', '34']],
    ['a value outside its enumeration (14e)', 'D', `35=D|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|11=id|40=Z|54=1|55=EURUSD|60=${utc(T0)}|38=1000|`, ['5', '40']],
    ['a value of the wrong format (14f)', '1', `35=1|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|112=A|43=maybe|`, ['6', '43']],
    ['a repeated tag (14h)', '1', `35=1|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|112=A|112=B|`, ['13', '112']],
    ['a tag without value (14d)', '1', `35=1|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|112=|`, ['4', '112']],
    ['a wrong NumInGroup count (14i)', 'V', `35=V|34=2|49=TAS_100001|52=${utc(T0)}|56=TASGW|262=m|263=0|264=1|267=3|269=0|269=1|146=1|55=EURUSD|`, ['16', '267']],
  ])('rejects %s with Reject 45/371/372/373 and consumes the number', (_name, msgType, body, [reason, tag]) => {
    const c = fresh().loggedOn();
    c.sendRaw(frame(body));
    const reject = c.one();
    expect([reject.type, reject.get(45), reject.get(372), reject.get(373), reject.get(371)]).toEqual(['3', '2', msgType, reason, tag]);
    expect(reject.get(58)).toBeTruthy();
    c.send('1', 3, '112=NEXT');
    expect(c.one().get(112)).toBe('NEXT');
  });

  it('logs out a message without MsgSeqNum (QFJ650)', () => {
    const c = fresh().loggedOn();
    c.sendRaw(frame(`35=0|49=TAS_100001|52=${utc(T0)}|56=TASGW|`));
    expect(c.one().get(58)).toBe('Received message without a valid MsgSeqNum (34)');
    expect(c.closed).toBe(true);
  });
});

describe('Heartbeat, TestRequest and Logout (4a, 4b, 6, 7, 13b)', () => {
  it('answers a TestRequest with a Heartbeat carrying its TestReqID (4b)', () => {
    const c = fresh().loggedOn();
    c.send('1', 2, '112=HELLO');
    const hb = c.one();
    expect([hb.type, hb.seq, hb.get(112)]).toEqual(['0', 2, 'HELLO']);
  });

  it('sends a Heartbeat after HeartBtInt without sending (4a)', () => {
    const c = fresh().loggedOn();
    h.clock.advance(29_999);
    c.send('0', 2);
    c.timer();
    expect(c.take()).toEqual([]);
    h.clock.advance(1);
    c.timer();
    expect(c.one().type).toBe('0');
  });

  it('sends a TestRequest after 1.5 x HeartBtInt of silence and disconnects after 2.5 x (6)', () => {
    const c = fresh().loggedOn();
    h.clock.advance(30_000);
    c.timer();
    expect(c.one().type).toBe('0');
    h.clock.advance(15_000);
    c.timer();
    const tr = c.one();
    expect([tr.type, tr.get(112)]).toEqual(['1', 'TEST-1']);
    h.clock.advance(29_999);
    c.timer();
    expect(c.take()).toEqual([]);
    expect(c.closed).toBe(false);
    h.clock.advance(1);
    c.timer();
    expect(c.one().get(58)).toBe('No message received for 75.0 s (2.5 x HeartBtInt): disconnecting');
    expect(c.closed).toBe(true);
  });

  it('keeps a client that answers the TestRequest', () => {
    const c = fresh().loggedOn();
    h.clock.advance(45_000);
    c.timer();
    expect(c.take().map((m) => m.type)).toEqual(['1']);
    c.send('0', 2, '112=TEST-1');
    h.clock.advance(44_000);
    c.timer();
    expect(c.closed).toBe(false);
  });

  it('consumes a client Reject without answering it (7)', () => {
    const c = fresh().loggedOn();
    c.send('3', 2, '45=1');
    expect(c.take()).toEqual([]);
    c.send('5', 3);
    expect(c.one().seq).toBe(2);
  });

  it('answers a client Logout with Logout and disconnects (13b)', () => {
    const c = fresh().loggedOn();
    c.send('5', 2, '58=bye');
    const logout = c.one();
    expect([logout.type, logout.seq, logout.get(58)]).toEqual(['5', 2, undefined]);
    expect(c.closed).toBe(true);
  });

  it('waits for the client Logout after its own (shutdown), and closes on it or after 2 s', () => {
    fresh();
    const a = h.loggedOn();
    const b = h.loggedOn('TAS_100002', 'key-2');
    h.gateway.logoutAll('The gateway is shutting down');
    h.gateway.flush();
    expect(a.one().get(58)).toBe('The gateway is shutting down');
    expect(b.one().type).toBe('5');
    a.send('1', 2, '112=IGNORED');
    expect(a.take()).toEqual([]);
    a.send('5', 3);
    expect(a.closed).toBe(true);
    h.clock.advance(2000);
    b.timer();
    expect(b.closed).toBe(true);
  });
});

describe('ResendRequest from the client (8)', () => {
  function withHistory(): Client {
    const c = fresh().loggedOn();
    c.send('1', 2, '112=A');
    c.send('D', 3, `11=C1|54=1|55=EURUSD|60=${utc(T0)}|38=1000|40=1`);
    c.send('1', 4, '112=B');
    c.send('D', 5, `11=C2|54=2|55=EURUSD|60=${utc(T0)}|38=2000|40=1`);
    expect(c.take().map((m) => `${m.seq}${m.type}`)).toEqual(['20', '38', '40', '58']);
    return c;
  }

  it('gap-fills session messages and resends ExecutionReports with PossDup and OrigSendingTime', () => {
    const c = withHistory();
    h.clock.advance(5000);
    c.send('2', 6, '7=1|16=0');
    const got = c.take();
    expect(got.map((m) => [m.seq, m.type, m.get(43), m.get(123), m.get(36)])).toEqual([
      [1, '4', 'Y', 'Y', '3'], [3, '8', 'Y', undefined, undefined], [4, '4', 'Y', 'Y', '5'], [5, '8', 'Y', undefined, undefined],
    ]);
    expect(got[1]?.get(122)).toBe(utc(T0));
    expect(got[1]?.get(52)).toBe(utc(T0 + 5000));
    expect([got[1]?.get(11), got[3]?.get(11)]).toEqual(['C1', 'C2']);
    c.send('1', 7, '112=AFTER');
    expect(c.one().seq).toBe(6);
  });

  it('resends a closed range and ignores one beyond what was sent', () => {
    const c = withHistory();
    c.send('2', 6, '7=3|16=3');
    expect(c.take().map((m) => [m.seq, m.type])).toEqual([[3, '8']]);
    c.send('2', 7, '7=9|16=0');
    expect(c.take()).toEqual([]);
  });
});
