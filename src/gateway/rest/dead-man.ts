// POST /v1/cancel-all-after: arms (or with timeout_ms 0 disarms) the calling key's dead-man's
// switch on its account. Each call re-arms it from now; once the deadline passes without another
// call, the account's shard cancels the key's pending orders (and, with close_positions, closes
// its API positions), with reason dead_man.
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { armCommand, deadManJson, parseDeadManRequest } from '../dead-man-request.js';
import { requireString } from '../order-request.js';
import { callShard } from '../shard-call.js';
import { jsonBody } from './orders.js';
import { readQuery } from './query.js';
import { notFound, type RestRoute } from './route.js';

const FIELDS = ['login', 'timeout_ms', 'close_positions'];
const MAX_LOGIN = 20;

export function deadManRoutes(ctx: Pick<GatewayContext, 'symbols' | 'pool' | 'config' | 'clock'>): RestRoute[] {
  return [{
    method: 'POST', pattern: '/v1/cancel-all-after', scope: 'trade',
    handle: async (call) => {
      readQuery(call.query, []);
      const body = jsonBody(call.contentType, call.body);
      for (const key of Object.keys(body)) {
        if (!FIELDS.includes(key)) throw new ApiError('bad_request', `unknown field ${JSON.stringify(key)}`, { field: key });
      }
      const login = requireString(body, 'login', MAX_LOGIN);
      const request = parseDeadManRequest(body, ctx.config.dead_man);
      if (login !== call.login) throw notFound('account', login);
      const result = await callShard(ctx, login, armCommand(login, call.key.record.id, request));
      if (result.kind !== 'deadMan') throw new Error(`cancel-all-after answered with ${result.kind}`);
      return { status: 200, body: deadManJson(result, ctx.clock.nowMs()) };
    },
  }];
}
