// What a trader's day looks like to the console, made through the real interfaces: a bot's REST
// traffic on alice's key (reads, orders, refusals), manual and bot positions, a manual and a bot
// pending order, all at prices pushed through the operator's quote route.
import { operator, RestClient, type Answer } from '../../rest/support/client.js';
import type { RunningServer } from '../../support/server.js';
import { ALICE_KEY } from './console.js';

export interface Scene {
  readonly manualTicket: number;
  readonly botTicket: number;
  readonly manualOrderId: string;
  readonly botOrderId: string;
}

const ok = (res: Answer, what: string): Answer => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
};

export function pushQuote(server: RunningServer, bid: number, ask: number, symbol = 'EURUSD'): Promise<Answer> {
  return operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol, bid, ask });
}

/** `reads` GETs, a few refusals, a market order and a pending order of the bot; a manual position and order. */
export async function traderDay(server: RunningServer, reads = 12): Promise<Scene> {
  const op = (method: string, path: string, body?: unknown): Promise<Answer> => operator(server.consolePort, server.adminToken, method, path, body);
  const bot = new RestClient(server.httpPort, ALICE_KEY);
  ok(await pushQuote(server, 1.1, 1.1002), 'quote');
  for (let i = 0; i < reads; i++) ok(await bot.get(i % 3 === 0 ? '/v1/accounts' : '/v1/positions?login=700001'), 'read');
  // Refusals the charts count by name: another user's account, a bad order.
  await bot.get('/v1/accounts/700101');
  await bot.post('/v1/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.001 });
  const botFill = ok(await bot.post('/v1/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.05 }), 'bot order');
  const botPending = ok(await bot.post('/v1/orders', { login: '700001', symbol: 'EURUSD', side: 'sell', type: 'limit', volume: 0.02, price: 1.12 }), 'bot limit');
  const manual = ok(await op('POST', '/console/api/orders', { login: '700001', symbol: 'EURUSD', side: 'sell', type: 'market', volume: 0.1, source: 'manual' }), 'manual order');
  const manualPending = ok(await op('POST', '/console/api/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.1, price: 1.08, sl: 1.07, tp: 1.1, source: 'manual' }), 'manual limit');
  ok(await pushQuote(server, 1.1004, 1.1006), 'quote');
  return { manualTicket: manual.body.ticket, botTicket: botFill.body.ticket, manualOrderId: manualPending.body.id, botOrderId: botPending.body.id };
}
