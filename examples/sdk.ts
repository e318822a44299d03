// The SDK end to end, as README "The SDK" shows it. Start the service (`make run`) in one terminal,
// then run `node dist/examples/sdk.js` in another (TAS_URL overrides http://127.0.0.1:8080). It
// reads the symbol's terms, buys 0.01 BTCUSD, sees the fill arrive on the stream, finds the order
// again through the read API, closes the position and exits.
import { RestClient, StreamClient, type OrderMessage } from '../src/client/index.js';

const base = process.env['TAS_URL'] ?? 'http://127.0.0.1:8080';
const auth = { keyId: 'demo-key', secret: 'demo-secret-0123456789abcdef' };
const rest = new RestClient({ baseUrl: `${base}/v1`, ...auth });
console.log('clock offset to the server', await rest.syncClock(), 'ms');
const stream = new StreamClient({ url: `${base.replace(/^http/, 'ws')}/v1`, ...auth, nowMs: () => rest.serverNowMs() });

const btc = (await rest.symbols()).data.find((s) => s.name === 'BTCUSD')!;
console.log('BTCUSD', btc.digits, 'digits, lots', btc.min_volume, 'to', btc.max_volume, btc.open ? 'open' : 'closed');

const filled = new Promise<OrderMessage>((resolve) => stream.on('order', (o) => { if (o.status === 'filled') resolve(o); }));
await stream.connect();
await stream.subscribe({ channels: ['orders'] });

const order = await rest.placeOrder({ login: '100001', symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01 });
console.log('filled at', order.price, 'ticket', order.ticket);
const event = await filled;
console.log('stream saw order', event.id, event.status, 'seq', event.seq);
console.log('read back', (await rest.getOrder(order.id)).status, '| pending orders:', (await rest.listOrders({ status: 'pending' })).data.length);
const closed = await rest.closePosition(order.ticket!);
console.log('closed at', closed.close_price, 'profit', closed.profit);
stream.close();
