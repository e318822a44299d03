// The REST API v1 on the HTTP listener (spec "Endpoints"): the signed routes, the public ones
// (server time, the API documents), the catch-all 404, the rate limiter's housekeeping and the
// per-key statistics, saved every 10 s and at stop.
import type { TemplatedApp } from 'uWebSockets.js';
import { asyncApiDocument } from '../../api/asyncapi.js';
import { openApiDocument } from '../../api/openapi.js';
import { packageVersion } from '../../config/load.js';
import type { GatewayContext } from '../context.js';
import { KEY_STATS, KEY_STATS_SAVE_MS, KeyStatsBook } from '../stats/key-stats-book.js';
import { iso } from '../wire.js';
import { accountRoutes } from './accounts.js';
import { deadManRoutes } from './dead-man.js';
import { orderReadRoutes } from './order-reads.js';
import { orderRoutes } from './orders.js';
import { RestPipeline } from './pipeline.js';
import { positionRoutes } from './positions.js';
import { readQuery } from './query.js';
import type { RestMethod, RestRoute } from './route.js';
import { symbolRoutes } from './symbols.js';

/** Full buckets are dropped this often (they equal fresh ones), bounding the limiter's memory. */
const BUCKET_SWEEP_MS = 5_000;

const UWS_METHOD: Readonly<Record<RestMethod, 'get' | 'post' | 'patch' | 'del'>> = { GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'del' };

export interface RestService {
  /** Per-key statistics, for the console. */
  readonly stats: KeyStatsBook;
  /** Stops the timers and saves the statistics (call before the store closes). */
  close(): Promise<void>;
}

export function restRoutes(ctx: GatewayContext): RestRoute[] {
  return [...accountRoutes(ctx), ...orderRoutes(ctx), ...orderReadRoutes(ctx), ...positionRoutes(ctx), ...deadManRoutes(ctx), ...symbolRoutes(ctx)];
}

export function registerRest(app: TemplatedApp, ctx: GatewayContext): RestService {
  const limiter = ctx.limits;
  const stats = new KeyStatsBook(ctx.store.table(KEY_STATS));
  const pipeline = new RestPipeline(ctx, limiter, stats, ctx.metrics);
  for (const route of restRoutes(ctx)) app[UWS_METHOD[route.method]](route.pattern, pipeline.handler(route));
  app.get('/v1/time', pipeline.publicRoute('GET /v1/time', (ex) => {
    readQuery(ex.query, []);
    const nowMs = ctx.clock.nowMs();
    return { status: 200, body: { time_ms: nowMs, time: iso(nowMs) } };
  }));
  const version = packageVersion();
  for (const [path, doc] of [['/v1/openapi.json', openApiDocument(version)], ['/v1/asyncapi.json', asyncApiDocument(version)]] as const) {
    const text = JSON.stringify(doc);
    app.get(path, pipeline.publicRoute(`GET ${path}`, () => ({ status: 200, json: text })));
  }
  // uWS prefers static and parametric routes over wildcards, so this takes only what nothing else claims.
  app.any('/*', pipeline.unknownRoute());
  const sweep = setInterval(() => limiter.sweep(ctx.clock.nowMs()), BUCKET_SWEEP_MS);
  sweep.unref();
  const stopSaving = stats.autosave(KEY_STATS_SAVE_MS, ctx.log);
  return {
    stats,
    async close() {
      clearInterval(sweep);
      await stopSaving();
    },
  };
}
