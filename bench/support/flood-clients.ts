// The flooding key of stream-flood.bench.ts, in its own process (forked, IPC for control), so the
// victim's measurements in the bench's process never wait behind the flood's reading: N
// connections of one key that, while the flood is on, alternate subscribe and unsubscribe of
// `positions` at a fixed rate each, read everything as fast as it comes (counting, not decoding),
// and redial whenever the server closes them.
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';

export type FloodCommand = { readonly t: 'on' } | { readonly t: 'off' } | { readonly t: 'stats' } | { readonly t: 'exit' };
export interface FloodStats { snapshots: number; pages: number; refused: number; closed: number; bytes: number }
export type FloodReport = { readonly t: 'connected' } | { readonly t: 'stats'; readonly stats: FloodStats };

const SNAPSHOT_END = Buffer.from('{"channel":"snapshot_end"');
const SNAPSHOT_PAGE = Buffer.from('{"channel":"snapshot",');
const RATE_LIMITED = Buffer.from('"name":"rate_limited"');

function occurrences(data: Buffer, needle: Buffer): number {
  let n = 0;
  for (let at = data.indexOf(needle); at >= 0; at = data.indexOf(needle, at + needle.length)) n++;
  return n;
}

const [portText, keyId, secret, connectionsText, opsPerSecText] = process.argv.slice(2) as [string, string, string, string, string];
const stats: FloodStats = { snapshots: 0, pages: 0, refused: 0, closed: 0, bytes: 0 };
let on = false;
let stopped = false;
const sockets = new Set<WebSocket>();

function url(): string {
  const ts = String(Date.now());
  return `ws://127.0.0.1:${portText}/v1?key=${keyId}&ts=${ts}&sig=${createHmac('sha256', secret).update(`${ts}GET/v1`).digest('hex')}`;
}

function dial(): Promise<void> {
  const ws = new WebSocket(url(), { perMessageDeflate: false });
  sockets.add(ws);
  let n = 0;
  const timer = setInterval(() => {
    if (!on || ws.readyState !== WebSocket.OPEN) return;
    ws.send(`{"op":"${n % 2 === 0 ? 'subscribe' : 'unsubscribe'}","id":${n},"channels":["positions"]}`);
    n++;
  }, 1000 / Number(opsPerSecText));
  ws.on('message', (data: Buffer) => {
    stats.bytes += data.length;
    stats.snapshots += occurrences(data, SNAPSHOT_END);
    stats.pages += occurrences(data, SNAPSHOT_PAGE);
    stats.refused += occurrences(data, RATE_LIMITED);
  });
  ws.on('close', () => {
    clearInterval(timer);
    sockets.delete(ws);
    if (stopped) return;
    stats.closed++;
    setTimeout(() => void dial(), 50);
  });
  ws.on('error', () => undefined);
  return new Promise((resolve) => { ws.once('open', () => resolve()); ws.once('close', () => resolve()); });
}

const send = (r: FloodReport): void => { process.send!(r); };
await Promise.all(Array.from({ length: Number(connectionsText) }, () => dial()));
send({ t: 'connected' });

process.on('message', (cmd: FloodCommand) => {
  switch (cmd.t) {
    case 'on': on = true; return;
    case 'off': on = false; return;
    case 'stats': send({ t: 'stats', stats: { ...stats } }); return;
    case 'exit':
      stopped = true;
      for (const ws of sockets) ws.close();
      process.exit(0);
  }
});
