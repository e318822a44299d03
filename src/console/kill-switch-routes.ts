// The console's kill switch routes (spec 7, DECISIONS "Kill switch", "Console"): the user switch
// (state, trigger, reset with a fresh TOTP code, the journal of past triggers and resets with
// their reports) and the account flag. The logic lives in src/killswitch; these map HTTP to it. A
// trigger needs no code: stopping a misbehaving bot must never wait for one. The operator may
// reset without a code; a code that is sent is checked like a user's.
import { ApiError } from '../gateway/errors.js';
import { listLimit, readQuery } from '../gateway/rest/query.js';
import { iso } from '../gateway/wire.js';
import { KillStore } from '../gateway/killswitch/kill-store.js';
import type { KillSwitches } from '../gateway/killswitch/kill-switches.js';
import { accountOf, userOf } from './actor.js';
import { freshTotp } from './fresh-totp.js';
import type { ConsoleRouter } from './router.js';

function onlyFields(body: Readonly<Record<string, unknown>>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new ApiError('bad_request', `unknown field ${JSON.stringify(key)}`, { field: key });
  }
}

export function registerKillSwitchRoutes(router: ConsoleRouter, kills: KillSwitches): void {
  const { deps } = router;
  const journal = new KillStore(deps.store);
  const actorOf = (kind: string) => (kind === 'operator' ? 'operator' : 'user') as 'operator' | 'user';

  router.route({ method: 'get', path: '/console/api/users/:user/kill-switch', access: 'member', body: 'none', action: 'kill_switch.get' }, (call) => {
    userOf(deps, call, call.params[0]!);
    call.reply(200, kills.view(call.params[0]!));
  });

  router.route({ method: 'post', path: '/console/api/users/:user/kill-switch/trigger', access: 'member', body: 'optional', action: 'kill_switch.trigger' }, async (call) => {
    onlyFields(call.body, []);
    const user = userOf(deps, call, call.params[0]!);
    const before = kills.view(user.id).state;
    const { view, report, paused, json } = await kills.trigger(user.id, actorOf(call.actor.kind));
    call.detail = {
      state: { from: before, to: view.state },
      closed: report.closed.length, cancelled: report.cancelled.length, failed: report.failed.length, paused_webhooks: paused,
    };
    call.replyJson(200, json);
  });

  router.route({ method: 'post', path: '/console/api/users/:user/kill-switch/reset', access: 'member', body: 'optional', action: 'kill_switch.reset' }, async (call) => {
    onlyFields(call.body, ['totp']);
    const user = userOf(deps, call, call.params[0]!);
    const before = kills.view(user.id).state;
    await freshTotp(deps, call, user, 'reset the kill switch');
    const answer = await kills.reset(user.id, actorOf(call.actor.kind));
    call.detail = { state: { from: before, to: answer.state }, released: answer.released, failed: answer.failed.length };
    call.reply(200, answer);
  });

  router.route({ method: 'get', path: '/console/api/users/:user/kill-switch/history', access: 'member', body: 'none', action: 'kill_switch.history' }, (call) => {
    const user = userOf(deps, call, call.params[0]!);
    const limit = listLimit(readQuery(call.ex.query, ['limit']));
    const data = journal.history(user.id, limit).map((e) => ({
      seq: e.seq, at: iso(e.atMs), action: e.action, actor: e.actor, state: e.state, report: e.report,
    }));
    call.reply(200, { data });
  });

  router.route({ method: 'put', path: '/console/api/accounts/:login/kill-switch', access: 'member', body: 'required', action: 'account.kill_switch' }, async (call) => {
    onlyFields(call.body, ['active']);
    const active = call.body['active'];
    if (typeof active !== 'boolean') throw new ApiError('bad_request', 'active must be true or false', { field: 'active' });
    const before = accountOf(deps, call, call.params[0]!).accountHalted;
    const answer = await kills.setAccount(call.params[0]!, active);
    call.detail = { kill_switch: { from: before, to: active }, closed: answer.closed.length, cancelled: answer.cancelled.length, failed: answer.failed.length };
    call.reply(200, answer);
  });
}
