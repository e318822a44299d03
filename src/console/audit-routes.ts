// Reading the audit log: the operator sees every entry (or one user's, with `?user=`), a user sees
// the entries they made and those that touched their resources. Newest first, paged.
import { ApiError } from '../gateway/errors.js';
import { listLimit, readQuery } from '../gateway/rest/query.js';
import { userOf, viewer } from './actor.js';
import type { ConsoleRouter } from './router.js';

const CURSOR = /^[1-9]\d{0,15}$/;

export function registerAuditRoutes(router: ConsoleRouter): void {
  const { deps } = router;
  router.route({ method: 'get', path: '/console/api/audit', access: 'member', body: 'none', action: 'audit.list' }, async (call) => {
    const query = readQuery(call.ex.query, ['limit', 'cursor', 'user']);
    const cursor = query.get('cursor');
    if (cursor !== undefined && !CURSOR.test(cursor)) throw new ApiError('bad_request', 'cursor must be a next_cursor value', { field: 'cursor' });
    const asked = query.get('user');
    if (asked !== undefined) userOf(deps, call, asked);
    const user = viewer(call.actor) ?? asked ?? null;
    call.reply(200, await deps.audit.page(user, cursor === undefined ? null : Number(cursor), listLimit(query)));
  });
}
