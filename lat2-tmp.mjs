import uWS from 'uWebSockets.js';
import { WebSocketServer } from 'ws';
import WebSocket from 'ws';
const [kind, gapText] = process.argv.slice(2); const gapMs = Number(gapText);
function client(port) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
  const lats = [];
  ws.on('message', (d) => { for (const t of String(d).split('\n')) lats.push(performance.now() - Number(t)); });
  return new Promise((r) => ws.on('open', () => r(lats)));
}
let publish, port;
if (kind === 'uws') {
  const app = uWS.App(); app.ws('/*', { open: (ws) => ws.subscribe('t') });
  port = await new Promise((r) => app.listen('127.0.0.1', 0, (s) => r(uWS.us_socket_local_port(s))));
  publish = (m) => app.publish('t', m);
} else {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }); await new Promise((r) => wss.on('listening', r));
  port = wss.address().port; const set = new Set(); wss.on('connection', (ws) => set.add(ws));
  publish = (m) => { for (const ws of set) ws.send(m); };
}
const lats = await client(port);
await new Promise((r) => setTimeout(r, 100));
const timer = setInterval(() => publish(String(performance.now())), gapMs);
setTimeout(() => { clearInterval(timer); setTimeout(() => { lats.sort((a, b) => a - b); console.log(kind, 'gap', gapMs, 'n', lats.length, 'p50', lats[lats.length >> 1].toFixed(3), 'p99', lats[Math.floor(lats.length * 0.99)].toFixed(3), 'max', lats[lats.length-1].toFixed(2)); process.exit(0); }, 200); }, 3000);
