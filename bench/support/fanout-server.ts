// One quote fan-out server for stream.bench.ts, in its own process (forked, IPC for control):
//   uws  the service's QuoteFanout (src/gateway/stream/quotes.ts) on a uWebSockets.js app with the
//        stream's settings: per-symbol topics, batching, conflation past 64 KiB buffered;
//   ws   the same fan-out written for the `ws` package: the same TickBatcher and quote text, each
//        batch sent with ws.send to each subscriber (skipped past 64 KiB buffered).
// Connection `/?i=N` subscribes to symbols (N·perConn + k) mod universe, k < perConn. Ticks come
// from a fixed-rate generator, round robin over the symbols, each stamped with the time it was
// DUE (fractional Unix ms), so a late generator shows up as latency (coordinated-omission safe).
import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'uWebSockets.js';
import { uws } from '../../src/gateway/uws.js';
import { WebSocketServer, type WebSocket as WsSocket } from 'ws';
import type { Quote, SymbolSpec } from '../../src/engine/types.js';
import { STREAM_TUNING } from '../../src/gateway/stream/tuning.js';
import { quoteText } from '../../src/gateway/stream/messages.js';
import { QuoteFanout, type QuoteOutlet } from '../../src/gateway/stream/quotes.js';
import { TickBatcher } from '../../src/gateway/stream/tick-batcher.js';

export type FanoutKind = 'uws' | 'ws';
export type ServerCommand = { readonly t: 'start'; readonly ticksPerSec: number } | { readonly t: 'stop' } | { readonly t: 'exit' };
export type ServerReport = { readonly t: 'ready'; readonly port: number } | { readonly t: 'stopped'; readonly ticks: number; readonly skipped: number };

/** The service's default stream.max_buffer_bytes. */
const MAX_BUFFER_BYTES = 1024 * 1024;
const PRICE_TICKS = 100_000;

interface Fanout { onQuote(q: Quote): void; skipped(): number }

const [kind, universeText, perConnText] = process.argv.slice(2) as [FanoutKind, string, string];
const universe = Number(universeText);
const perConn = Number(perConnText);
const specs: SymbolSpec[] = Array.from({ length: universe }, (_, i) => ({
  name: `B${String(i).padStart(3, '0')}`, digits: 2, contractSize: 1, maxVolume: 1000, baseCurrency: null, quoteCurrency: 'USD', session: '24x7',
}));
const symbolsOf = (conn: number): string[] => Array.from({ length: perConn }, (_, k) => specs[(conn * perConn + k) % universe]!.name);
const connOf = (query: string): number => Number(new URLSearchParams(query).get('i'));

function uwsServer(ready: (port: number) => void): Fanout {
  const uWS = uws();
  const app = uWS.App();
  const fanout = new QuoteFanout(app, specs, () => null, {
    conflateAtBytes: STREAM_TUNING.conflateAtBytes,
    resumeAtBytes: STREAM_TUNING.resumeAtBytes,
    hardLimitBytes: MAX_BUFFER_BYTES,
    sweepMs: STREAM_TUNING.sweepMs,
  });
  interface Data { readonly conn: number; outlet: QuoteOutlet | null }
  app.ws<Data>('/*', {
    maxPayloadLength: STREAM_TUNING.maxPayloadBytes,
    idleTimeout: STREAM_TUNING.idleTimeoutS,
    maxBackpressure: MAX_BUFFER_BYTES * 2 + STREAM_TUNING.maxPayloadBytes,
    closeOnBackpressureLimit: false,
    upgrade: (res, req, context) => {
      res.upgrade({ conn: connOf(req.getQuery() ?? ''), outlet: null }, req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'), req.getHeader('sec-websocket-extensions'), context);
    },
    open: (ws: WebSocket<Data>) => {
      const outlet: QuoteOutlet = {
        ws: ws as WebSocket<unknown>,
        push: (text) => { ws.send(text, false, false); },
        bufferedBytes: () => ws.getBufferedAmount(),
        overflow: () => ws.end(1008, 'slow consumer'),
      };
      ws.getUserData().outlet = outlet;
      fanout.add(outlet, symbolsOf(ws.getUserData().conn));
    },
    drain: (ws) => { const o = ws.getUserData().outlet; if (o) fanout.onDrain(o); },
    close: (ws) => { const o = ws.getUserData().outlet; if (o) fanout.drop(o); },
  });
  app.listen('127.0.0.1', 0, (socket) => { if (socket) ready(uWS.us_socket_local_port(socket)); });
  return { onQuote: (q) => fanout.onQuote(q), skipped: () => 0 };
}

function wsServer(ready: (port: number) => void): Fanout {
  const subscribers = new Map<string, Set<WsSocket>>(specs.map((s) => [s.name, new Set()]));
  const json = new Map(specs.map((s) => [s.name, JSON.stringify(s.name)]));
  let skipped = 0;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, maxPayload: STREAM_TUNING.maxMessageBytes });
  wss.on('listening', () => ready((wss.address() as { port: number }).port));
  wss.on('connection', (ws, req) => {
    const symbols = symbolsOf(connOf((req.url ?? '').split('?')[1] ?? ''));
    for (const s of symbols) subscribers.get(s)!.add(ws);
    ws.on('close', () => { for (const s of symbols) subscribers.get(s)!.delete(ws); });
  });
  const batcher = new TickBatcher((symbol, quotes) => {
    const frame = quotes.map((q) => quoteText(json.get(symbol)!, 2, q)).join('\n');
    for (const ws of subscribers.get(symbol)!) {
      if (ws.bufferedAmount > STREAM_TUNING.conflateAtBytes) { skipped++; continue; }
      ws.send(frame);
    }
  });
  return { onQuote: (q) => batcher.add(q), skipped: () => skipped };
}

/** Emits the ticks due since the last run, every millisecond. */
class Ticker {
  private timer: NodeJS.Timeout | null = null;
  private emitted = 0;

  constructor(private readonly fanout: Fanout, private readonly ticksPerSec: number) {
    const startMs = performance.now();
    const perMs = ticksPerSec / 1000;
    const run = (): void => {
      // Tick k is due at k / perMs: every tick whose due time has come goes now.
      const due = Math.floor((performance.now() - startMs) * perMs) + 1;
      for (; this.emitted < due; this.emitted++) {
        const k = this.emitted;
        const bid = PRICE_TICKS + (k % 1000);
        fanout.onQuote({ symbol: specs[k % universe]!.name, bid, ask: bid + 10, ts: performance.timeOrigin + startMs + k / perMs });
      }
      this.timer = setTimeout(run, 1);
    };
    this.timer = setTimeout(run, 1);
  }

  stop(): number {
    if (this.timer) clearTimeout(this.timer);
    return this.emitted;
  }
}

const send = (r: ServerReport): void => { process.send!(r); };
const fanout = (kind === 'uws' ? uwsServer : wsServer)((port) => send({ t: 'ready', port }));
let ticker: Ticker | null = null;
process.on('message', (cmd: ServerCommand) => {
  if (cmd.t === 'start') ticker = new Ticker(fanout, cmd.ticksPerSec);
  else if (cmd.t === 'stop') send({ t: 'stopped', ticks: ticker?.stop() ?? 0, skipped: fanout.skipped() });
  else process.exit(0);
});
