// The console's signal webhook routes (DECISIONS "Console", "Signal webhooks"): list, create, edit
// the allowed symbols and the targets with their sizing rules, pause, resume, rotate the secret,
// and each webhook's signal log (every signal with its fan-out, every rejection with its reason).
// A user sees and makes webhooks of their own only. The logic lives in src/gateway/webhooks.
import { randomBytes } from 'node:crypto';
import { ApiError } from '../gateway/errors.js';
import { listLimit, readQuery } from '../gateway/rest/query.js';
import type { SignalLog } from '../gateway/webhooks/signal-log.js';
import { createWebhook, editWebhook, webhookJson } from '../gateway/webhooks/webhook-admin.js';
import type { LiveWebhook, WebhookBook } from '../gateway/webhooks/webhook-book.js';
import { mayTouch, viewer, type Scoped } from './actor.js';
import type { ConsoleRouter } from './router.js';

const CURSOR = /^[1-9]\d{0,15}$/;

function known(book: WebhookBook, call: Scoped, id: string): LiveWebhook {
  const notFound = `webhook ${JSON.stringify(id)} not found`;
  const hook = book.get(id);
  if (hook === undefined) throw new ApiError('not_found', notFound);
  mayTouch(call, hook.record.user, notFound);
  return hook;
}

export function registerWebhookRoutes(router: ConsoleRouter, book: WebhookBook, signalLog: SignalLog): void {
  const { deps } = router;

  router.route({ method: 'get', path: '/console/api/webhooks', access: 'member', body: 'none', action: 'webhook.list' }, (call) => {
    readQuery(call.ex.query, []);
    const own = viewer(call.actor);
    call.reply(200, { data: (own === null ? book.all() : book.ofUser(own)).map(webhookJson) });
  });

  router.route({ method: 'post', path: '/console/api/webhooks', access: 'member', body: 'required', action: 'webhook.create' }, async (call) => {
    const own = viewer(call.actor);
    const body = { ...call.body };
    if (own !== null) {
      // A user's webhooks are their own: `user` may be left out, and names no one else.
      if (body['user'] !== undefined && body['user'] !== own) throw new ApiError('forbidden', 'a webhook can only be made for your own user', { field: 'user' });
      body['user'] = own;
    }
    const { hook, generatedSecret } = await createWebhook(book, deps, body, call.nowMs);
    call.owner = hook.record.user;
    call.target = hook.record.id;
    call.detail = { created: webhookJson(hook) };
    // A generated secret is shown this once; it is stored sealed and never shown again.
    call.reply(201, generatedSecret === null ? webhookJson(hook) : { ...webhookJson(hook), secret: generatedSecret }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'put', path: '/console/api/webhooks/:id', access: 'member', body: 'required', action: 'webhook.edit' }, async (call) => {
    const hook = known(book, call, call.params[0]!);
    const before = webhookJson(hook);
    const after = webhookJson(await editWebhook(book, deps, hook, { ...call.body }));
    call.detail = { symbols: { from: before.symbols, to: after.symbols }, targets: { from: before.targets, to: after.targets } };
    call.reply(200, after);
  });

  for (const [action, paused] of [['pause', true], ['resume', false]] as const) {
    router.route({ method: 'post', path: `/console/api/webhooks/:id/${action}`, access: 'member', body: 'optional', action: `webhook.${action}` }, async (call) => {
      if (Object.keys(call.body).length > 0) throw new ApiError('bad_request', `${action} takes no fields`);
      const before = known(book, call, call.params[0]!).record.paused;
      const hook = (await book.setPaused(call.params[0]!, paused))!;
      call.detail = { paused: { from: before, to: hook.record.paused } };
      call.reply(200, webhookJson(hook));
    });
  }

  router.route({ method: 'post', path: '/console/api/webhooks/:id/rotate-secret', access: 'member', body: 'optional', action: 'webhook.rotate_secret' }, async (call) => {
    if (Object.keys(call.body).length > 0) throw new ApiError('bad_request', 'rotate-secret takes no fields; the new secret is generated');
    known(book, call, call.params[0]!);
    const secret = randomBytes(24).toString('base64url');
    const hook = (await book.update(call.params[0]!, { secret }))!;
    call.detail = { secret_rotated: true };
    // Signals signed with the old secret are refused (401) from now on.
    call.reply(200, { ...webhookJson(hook), secret }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'get', path: '/console/api/webhooks/:id/signals', access: 'member', body: 'none', action: 'webhook.signals' }, async (call) => {
    const hook = known(book, call, call.params[0]!);
    const query = readQuery(call.ex.query, ['limit', 'cursor']);
    const cursor = query.get('cursor');
    if (cursor !== undefined && !CURSOR.test(cursor)) throw new ApiError('bad_request', 'cursor must be a next_cursor value', { field: 'cursor' });
    call.reply(200, await signalLog.page(hook.record.id, cursor === undefined ? null : Number(cursor), listLimit(query)));
  });
}
