// The accounts a console caller may act on, with what the key form and the kill switch page need:
// type and group, money in the account currency, the account kill switch flag, the owner's kill
// switch state, and whether a key on it may have the 100 req/s rate limit.
import { readQuery } from '../gateway/rest/query.js';
import { money } from '../gateway/wire.js';
import type { KillSwitches } from '../killswitch/kill-switches.js';
import { sees } from './actor.js';
import { mayUsePremiumRate, RATE_LIMITS } from './key-create.js';
import type { ConsoleRouter } from './router.js';

export function registerAccountRoutes(router: ConsoleRouter, kills: KillSwitches): void {
  const { deps } = router;
  router.route({ method: 'get', path: '/console/api/accounts', access: 'member', body: 'none', action: 'account.list' }, (call) => {
    readQuery(call.ex.query, []);
    const accounts = [...deps.readModel.allAccounts()].filter((a) => sees(call.actor, a)).sort((a, b) => (a.login < b.login ? -1 : a.login > b.login ? 1 : 0));
    call.reply(200, {
      data: accounts.map((a) => {
        const m = deps.readModel.metrics(a);
        const premium = mayUsePremiumRate(a, m);
        return {
          login: a.login, user: a.user, type: a.type, group: a.group, currency: a.currency, server: a.server, leverage: a.leverage,
          balance: money(m.balance), equity: money(m.equity), margin: money(m.margin), free_margin: money(m.freeMargin),
          kill_switch: { active: a.accountHalted },
          user_kill_switch: kills.isTriggered(a.user) ? 'Triggered' : 'Armed',
          rate_limits: premium ? RATE_LIMITS : RATE_LIMITS.filter((r) => r < 100),
        };
      }),
    });
  });
}
