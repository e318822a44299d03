// Wires the management console on its listener (DECISIONS "Console"): the JSON API under
// /console/api behind one guard (router.ts), and the web page at /console. Called once the REST
// statistics and the webhooks (with the kill switches) exist.
import type { TemplatedApp } from 'uWebSockets.js';
import type { GatewayContext } from '../gateway/context.js';
import { ApiError } from '../gateway/errors.js';
import { Exchange } from '../gateway/http.js';
import type { KeyStatsBook } from '../gateway/stats/key-stats-book.js';
import type { Webhooks } from '../gateway/webhooks/register.js';
import { systemScheduler } from '../base/clock.js';
import { KEYS } from '../store/records.js';
import { registerAccountRoutes } from './account-routes.js';
import type { AuditLog } from './audit-log.js';
import { registerAuditRoutes } from './audit-routes.js';
import { EquityHistory } from './equity/equity-history.js';
import { KeySeries } from './key-series/key-series.js';
import { registerSeriesRoutes } from './key-series/series-routes.js';
import { registerKeyRoutes } from './key-routes.js';
import { registerMetricsRoute } from './metrics-route.js';
import { registerKillSwitchRoutes } from './kill-switch-routes.js';
import { IpThrottle, Lockout } from './lockout.js';
import { registerOperatorRoutes } from './operator-routes.js';
import { PasswordPool } from './password-pool.js';
import { registerQuoteRoutes } from './quote-routes.js';
import { ConsoleRouter, type ConsoleDeps } from './router.js';
import { registerSessionRoutes } from './session-routes.js';
import { SessionStore } from './sessions.js';
import { chartTables } from './tables.js';
import { TotpGuard } from './totp-guard.js';
import { registerUserRoutes } from './user-routes.js';
import { registerWebPage } from './web-page.js';
import { registerWebhookRoutes } from './webhook-routes.js';

export interface ConsoleParts {
  readonly adminToken: string;
  readonly stats: KeyStatsBook;
  readonly webhooks: Pick<Webhooks, 'book' | 'kills' | 'signalLog'>;
  /** Created at start, before the shards report anything (their dead-man firings are audited). */
  readonly audit: AuditLog;
  /** Balance and equity per minute, fed by the shards (service.ts wires them before they start sending). */
  readonly equity: EquityHistory;
}

export interface ConsoleService {
  /** Ends the sessions, the password pool and the key series and waits for their writes (call before the store closes). */
  close(): Promise<void>;
}

export function registerConsole(app: TemplatedApp, ctx: GatewayContext, parts: ConsoleParts): ConsoleService {
  const deps: ConsoleDeps = {
    ...ctx,
    adminToken: parts.adminToken,
    sessions: new SessionStore(ctx.clock),
    audit: parts.audit,
    totp: new TotpGuard(ctx.store, ctx.box, ctx.clock),
    lockout: new Lockout(),
  };
  const passwords = new PasswordPool();
  const tables = chartTables(ctx.store);
  const series = new KeySeries({
    tables, clock: ctx.clock, scheduler: systemScheduler, log: ctx.log,
    keyIds: () => ctx.store.table(KEYS).getKeys(),
  });
  parts.stats.onRequest(series.record);
  series.start();
  const { equity } = parts;
  const router = new ConsoleRouter(app, deps);
  registerSessionRoutes(router, passwords, new IpThrottle());
  registerOperatorRoutes(router);
  registerUserRoutes(router);
  registerAccountRoutes(router, parts.webhooks.kills, equity);
  registerQuoteRoutes(router);
  registerKeyRoutes(router, parts.stats);
  registerSeriesRoutes(router, series);
  registerKillSwitchRoutes(router, parts.webhooks.kills);
  registerWebhookRoutes(router, parts.webhooks.book, parts.webhooks.signalLog);
  registerAuditRoutes(router);
  registerMetricsRoute(router, ctx.metrics);
  router.route({ method: 'get', path: '/console/api/routes', access: 'member', body: 'none', action: 'routes.list' }, (call) => {
    call.reply(200, { data: router.routes.map((r) => ({ method: r.method === 'del' ? 'DELETE' : r.method.toUpperCase(), path: r.path, access: r.access, action: r.action })) });
  });
  registerWebPage(app);
  app.any('/*', (res, req) => {
    const ex = Exchange.open(res, req);
    if (!ex) return;
    ex.fail(new ApiError('not_found', `no console route ${ex.method} ${ex.path.slice(0, 100)}`));
  });
  return {
    async close() {
      deps.sessions.close();
      await passwords.close();
      await series.stop();
      await deps.audit.settled();
    },
  };
}
