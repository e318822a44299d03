// Wires signal webhooks and the kill switches into the service: the signal route on the HTTP
// listener, and start-up reconciliation of the kill switches (awaited, so no trading call is
// served before a crash-interrupted trigger is finished). Their console routes are registered by
// the console (src/console/register.ts) with what this returns.
import type { TemplatedApp } from 'uWebSockets.js';
import type { GatewayContext } from '../context.js';
import { KillSwitches } from '../killswitch/kill-switches.js';
import { SignalDesk } from './signal-desk.js';
import { SignalLog } from './signal-log.js';
import { registerSignalRoute } from './signal-route.js';
import { WebhookBook } from './webhook-book.js';

export interface Webhooks {
  readonly book: WebhookBook;
  readonly kills: KillSwitches;
  readonly desk: SignalDesk;
  readonly signalLog: SignalLog;
  /** Waits for running kill switches and signal log writes; call after the shards stopped, before the store closes. */
  close(): Promise<void>;
}

export async function registerWebhooks(httpApp: TemplatedApp, deps: GatewayContext): Promise<Webhooks> {
  const book = new WebhookBook(deps.store, deps.box);
  const kills = new KillSwitches({ ...deps, book });
  const signalLog = new SignalLog(deps.store, deps.log);
  const desk = new SignalDesk({
    pool: deps.pool, symbols: deps.symbols, log: deps.log, clock: deps.clock, book, signalLog,
    deadlineMs: deps.config.webhooks.deadline_ms,
    dedupWindowMs: deps.config.webhooks.dedup_window_ms,
    ownerHalted: (user) => kills.isTriggered(user),
    anonymousLimit: (ip, nowMs) => deps.limits.anonymous(ip, nowMs),
  });
  registerSignalRoute(httpApp, deps, desk);
  await kills.reconcile();
  return {
    book, kills, desk, signalLog,
    async close() {
      await kills.settled();
      await signalLog.settled();
    },
  };
}
