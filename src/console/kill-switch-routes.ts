// The console's operator routes for the user and account kill switches (DECISIONS "Console"). The
// logic lives in src/killswitch; these only map HTTP to it. The operator may reset without a TOTP
// code; a code that is sent is checked like a user's.
import type { TemplatedApp } from 'uWebSockets.js';
import { ApiError } from '../gateway/errors.js';
import type { KillSwitches } from '../killswitch/kill-switches.js';
import { operatorRoute, type OperatorDeps } from './operator-routes.js';

function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw new ApiError('bad_request', `unknown field ${JSON.stringify(key)}`, key);
  }
}

export function registerKillSwitchRoutes(app: TemplatedApp, deps: OperatorDeps, kills: KillSwitches): void {
  operatorRoute(app, deps, 'get', '/console/api/users/:user/kill-switch', (ex, _body, params) => {
    ex.json(200, kills.view(params[0]!));
  }, 'optional');

  operatorRoute(app, deps, 'post', '/console/api/users/:user/kill-switch/trigger', async (ex, body, params) => {
    onlyFields(body, []);
    ex.json(200, await kills.trigger(params[0]!, 'operator'));
  }, 'optional');

  operatorRoute(app, deps, 'post', '/console/api/users/:user/kill-switch/reset', async (ex, body, params) => {
    onlyFields(body, ['totp']);
    const totp = body['totp'];
    if (totp !== undefined && totp !== null && typeof totp !== 'string') throw new ApiError('bad_request', 'totp must be a string of 6 digits', 'totp');
    ex.json(200, await kills.reset(params[0]!, 'operator', typeof totp === 'string' ? totp : null));
  }, 'optional');

  operatorRoute(app, deps, 'put', '/console/api/accounts/:login/kill-switch', async (ex, body, params) => {
    onlyFields(body, ['active']);
    const active = body['active'];
    if (typeof active !== 'boolean') throw new ApiError('bad_request', 'active must be true or false', 'active');
    ex.json(200, await kills.setAccount(params[0]!, active));
  }, 'required');
}
