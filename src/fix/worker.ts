// The FIX thread: owns the TLS 1.3 listener, the codec and every session. It reaches the shards
// through its own SPSC rings (ShardPool.fixRings) and gets ticks through one more ring from the
// main thread; one Inbox wakes it for all of them, so its event loop stays free for the sockets
// between batches. Reads keys and orders from the shared LMDB environment, quotes from the board.
import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { Inbox } from '../ring/index.js';
import { compileSession } from '../engine/market-session.js';
import { QuoteBoard } from '../market/quote-board.js';
import { SecretBox } from '../store/secret-box.js';
import { openStore } from '../store/store.js';
import { createLogger } from '../base/log.js';
import { ThreadMemoryBoard } from '../base/thread-memory.js';
import { nameThread } from '../base/thread-name.js';
import { FixGateway } from './app/gateway.js';
import type { AppDeps, FixSymbol } from './app/ports.js';
import { contractDecimal } from './app/units.js';
import { Connection } from './connection.js';
import { hoursText, sessionConfigOf } from './fix-config.js';
import { FixShardLink } from './shard-link.js';
import { ShardClient } from '../shard/client.js';
import { RingTransport } from '../shard/ring-transport.js';
import { BoardQuotes, StoreKeys } from './store-views.js';
import { FixCounters } from './counters.js';
import { TickReceiver } from './tick-ring.js';
import { listenTls } from './tls-listener.js';
import type { FixToMain, FixWorkerData, MainToFix } from './worker-data.js';

/** How often live sessions' keys are re-read (a paused or revoked key logs its session out). */
const KEY_RECHECK_MS = 5000;
/** Longest the thread delivers shard frames before its sockets get a turn. */
const DELIVERY_SLICE_MS = 2;
/** A watch frame waiting for ring space is retried this soon. */
const BACKLOG_RETRY_MS = 1;
/** Shutdown: how long sessions get to finish the Logout handshake. */
const STOP_GRACE_MS = 2500;

const data = workerData as FixWorkerData;
const log = createLogger(data.logLevel, { thread: 'fix' });
const post = (m: FixToMain): void => parentPort!.postMessage(m);

async function main(): Promise<void> {
  nameThread('tas-fix');
  new ThreadMemoryBoard(data.memory).recordOwn();
  const store = openStore(data.dataDir, data.durability, 0);
  const box = SecretBox.openOrCreate(data.dataDir);
  const board = QuoteBoard.attach(data.board.sab, data.board.symbols);
  const symbols = new Map<string, FixSymbol>(data.symbols.map((spec) => [spec.name, { spec, contract: contractDecimal(spec) }]));
  const client = new ShardClient(new RingTransport(data.toShards, data.fromShards), (err) => log.error({ err }, 'fix: shard answer handler failed'));
  const shards = new FixShardLink(client);
  const deps: AppDeps = {
    shards, quotes: new BoardQuotes(board), keys: new StoreKeys(store, box), symbols,
    senderPrefix: data.fix.sender_prefix, hours: compileSession(data.fix.session), hoursText: hoursText(data.fix.session),
    cancelOnDisconnect: data.fix.cancel_on_disconnect,
  };
  const gateway = new FixGateway(deps, Date.now, log, new FixCounters(data.counters));
  shards.connect(gateway);
  const ticks = new TickReceiver(data.ticks);
  const config = sessionConfigOf(data.fix);
  const connections = new Set<Connection>();

  const listener = await listenTls({
    host: data.fix.host, port: data.fix.port, cert: data.tls.cert, key: data.tls.key, handshakeTimeoutMs: data.fix.logon_timeout_ms,
  }, log, (socket) => {
    connections.add(new Connection(socket, config, gateway, log, (c) => connections.delete(c)));
  });

  let running = true;
  const inbox = new Inbox([...data.fromShards, data.ticks]);
  let backlogRetry: NodeJS.Timeout | null = null;
  const pass = (): number => {
    let frames = 0;
    try {
      frames = client.receive(DELIVERY_SLICE_MS) + ticks.drain((quote) => gateway.onQuote(quote));
      if (client.blocked) client.flush();
    } catch (err) {
      log.error({ err }, 'fix: ring drain failed');
    }
    gateway.flush();
    if (client.blocked && backlogRetry === null) backlogRetry = setTimeout(() => { backlogRetry = null; pass(); }, BACKLOG_RETRY_MS);
    return frames;
  };
  const pump = async (): Promise<void> => {
    while (running) {
      // After a busy pass the loop yields once, so socket reads interleave with ring batches; with
      // nothing to deliver it sleeps on the doorbell (why not poll: see ShardPool's delivery loop).
      if (pass() > 0 || client.backlogged) await yieldToIo();
      else if (!(await inbox.whenReadable())) return;
    }
  };
  const pumping = pump();
  const recheck = setInterval(() => {
    try {
      gateway.recheckKeys();
    } catch (err) {
      log.error({ err }, 'fix: key re-check failed');
    }
    gateway.flush();
  }, KEY_RECHECK_MS);

  parentPort!.on('message', (m: MainToFix) => {
    if (m.t !== 'stop') return;
    listener.close();
    clearInterval(recheck);
    gateway.logoutAll('The gateway is shutting down');
    gateway.flush();
    const deadline = Date.now() + STOP_GRACE_MS;
    const finish = (): void => {
      if (connections.size > 0 && Date.now() < deadline) {
        setTimeout(finish, 10);
        return;
      }
      for (const c of connections) c.close();
      running = false;
      inbox.close();
      if (backlogRetry !== null) clearTimeout(backlogRetry);
      void pumping.then(() => store.close()).then(() => post({ t: 'stopped' }));
    };
    finish();
  });
  post({ t: 'listening', port: listener.port });
  log.info({ port: listener.port, symbols: symbols.size }, 'fix: listening');
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'fix thread failed to start');
  process.exit(1);
});
