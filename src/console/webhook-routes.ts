// The console's operator routes for signal webhooks (DECISIONS "Console"): list, create, pause,
// resume, and each webhook's signal log. The logic lives in src/gateway/webhooks; these only map
// HTTP to it.
import type { TemplatedApp } from 'uWebSockets.js';
import { ApiError } from '../gateway/errors.js';
import { listLimit, readQuery } from '../gateway/rest/query.js';
import type { SignalLog } from '../gateway/webhooks/signal-log.js';
import { createWebhook, webhookJson } from '../gateway/webhooks/webhook-admin.js';
import type { LiveWebhook, WebhookBook } from '../gateway/webhooks/webhook-book.js';
import { operatorRoute, type OperatorDeps } from './operator-routes.js';

const CURSOR = /^[1-9]\d{0,15}$/;

function known(book: WebhookBook, id: string): LiveWebhook {
  const hook = book.get(id);
  if (hook === undefined) throw new ApiError('not_found', `webhook ${id} not found`);
  return hook;
}

export function registerWebhookRoutes(app: TemplatedApp, deps: OperatorDeps, book: WebhookBook, signalLog: SignalLog): void {
  operatorRoute(app, deps, 'get', '/console/api/webhooks', (ex) => {
    readQuery(ex.query, []);
    ex.json(200, { data: book.all().map(webhookJson) });
  }, 'optional');

  operatorRoute(app, deps, 'post', '/console/api/webhooks', async (ex, body) => {
    const { hook, generatedSecret } = await createWebhook(book, deps, body, deps.clock.nowMs());
    // A generated secret is shown this once; it is stored sealed and never shown again.
    ex.json(201, generatedSecret === null ? webhookJson(hook) : { ...webhookJson(hook), secret: generatedSecret });
  }, 'required');

  for (const [action, paused] of [['pause', true], ['resume', false]] as const) {
    operatorRoute(app, deps, 'post', `/console/api/webhooks/:id/${action}`, async (ex, _body, params) => {
      known(book, params[0]!);
      ex.json(200, webhookJson((await book.setPaused(params[0]!, paused))!));
    }, 'optional');
  }

  operatorRoute(app, deps, 'get', '/console/api/webhooks/:id/signals', async (ex, _body, params) => {
    const hook = known(book, params[0]!);
    const query = readQuery(ex.query, ['limit', 'cursor']);
    const cursor = query.get('cursor');
    if (cursor !== undefined && !CURSOR.test(cursor)) throw new ApiError('bad_request', 'cursor must be a next_cursor value', 'cursor');
    ex.json(200, await signalLog.page(hook.record.id, cursor === undefined ? null : Number(cursor), listLimit(query)));
  }, 'optional');
}
