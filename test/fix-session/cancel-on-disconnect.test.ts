// Cancel on disconnect through the real session, desks, shard client and engine (FakeShard): the
// Logon tag 8013 (CancelOrdersOnDisconnect) overrides config fix.cancel_on_disconnect either way;
// a session dropped without a Logout cancels the key's pending orders (58=dead_man on the next
// session's status reports), a clean Logout never does.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, T0, utc, type Client } from './support/harness.js';

let h: Harness;
afterEach(() => {
  expect(h.dictionaryErrors).toEqual([]);
});

const TIME = utc(T0);
const limit = (clOrdId: string): string => `11=${clOrdId}|60=${TIME}|55=EURUSD|54=1|38=100000|40=2|44=1.08000|59=1`;

/** Logs on with `extra` Logon tags and places one pending order; its OrderID. */
function withOrder(extra: string, clOrdId = 'O1'): { c: Client; orderId: string } {
  const c = h.connect();
  c.logon(1, { extra: `141=Y|${extra}` });
  expect(c.take()[0]?.type).toBe('A');
  c.send('D', 2, limit(clOrdId));
  const [er] = c.take();
  expect(er?.get(39)).toBe('0');
  return { c, orderId: er!.get(37)! };
}

/** The order's OrdStatus and Text, as a fresh session's OrderStatusRequest (H) reports it. */
function statusOf(orderId: string): [string | undefined, string | undefined] {
  const c = h.loggedOn();
  c.send('H', 2, `37=${orderId}|11=W|55=EURUSD|54=1|790=W1`);
  const [er] = c.take();
  expect(er?.get(150)).toBe('I');
  c.session.transportClosed();
  h.pump();
  return [er?.get(39), er?.get(58)];
}

function drop(c: Client): void {
  c.session.transportClosed();
  h.pump();
}

describe('cancel on disconnect', () => {
  it('8013=Y turns it on: a dropped session cancels the key\'s pending orders', () => {
    h = new Harness({ cancelOnDisconnect: false });
    const { c, orderId } = withOrder('8013=Y|');
    drop(c);
    expect(statusOf(orderId)).toEqual(['4', 'dead_man']);
  });

  it('8013=N turns it off where the config has it on', () => {
    h = new Harness({ cancelOnDisconnect: true });
    const { c, orderId } = withOrder('8013=N|');
    drop(c);
    expect(statusOf(orderId)).toEqual(['0', undefined]);
  });

  it('the config alone turns it on, and a clean Logout never cancels', () => {
    h = new Harness({ cancelOnDisconnect: true });
    const clean = withOrder('');
    clean.c.send('5', 3, '');
    expect(clean.c.take().map((m) => m.type)).toEqual(['5']);
    h.pump();
    expect(statusOf(clean.orderId)).toEqual(['0', undefined]);
    const dropped = withOrder('', 'O2');
    drop(dropped.c);
    // Every pending order placed through the key goes, the one of the clean session too.
    expect(statusOf(dropped.orderId)).toEqual(['4', 'dead_man']);
    expect(statusOf(clean.orderId)).toEqual(['4', 'dead_man']);
  });
});
