// GET /accounts and GET /accounts/{login} (spec "Endpoints"), answered from the main thread's read
// model. A key sees its own account only: any other login is not_found, as if it did not exist.
import type { AccountRecord, AccountType } from '../../engine/types.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { accountDetailJson, accountItemJson } from '../wire.js';
import { cut, listLimit, readQuery } from './query.js';
import { notFound, type RestRoute } from './route.js';

const ACCOUNT_TYPES: readonly AccountType[] = ['live', 'demo'];
const MAX_LOGIN_CURSOR = 64;

type Reads = Pick<GatewayContext, 'readModel'>;

function accountType(text: string | undefined): AccountType | null {
  if (text === undefined) return null;
  if (!(ACCOUNT_TYPES as readonly string[]).includes(text)) throw new ApiError('bad_request', 'type must be live or demo', { field: 'type' });
  return text as AccountType;
}

function loginCursor(text: string | undefined): string | null {
  if (text === undefined) return null;
  if (text === '' || text.length > MAX_LOGIN_CURSOR) throw new ApiError('bad_request', 'cursor must be the next_cursor of a previous page', { field: 'cursor' });
  return text;
}

export function accountRoutes(ctx: Reads): RestRoute[] {
  const visible = (login: string): AccountRecord => {
    const account = ctx.readModel.account(login);
    if (!account) throw notFound('account', login);
    return account;
  };
  return [
    {
      method: 'GET', pattern: '/v1/accounts', scope: 'read',
      handle: (call) => {
        const q = readQuery(call.query, ['type', 'limit', 'cursor']);
        const type = accountType(q.get('type'));
        const limit = listLimit(q);
        const after = loginCursor(q.get('cursor'));
        // Ordered by login; the key's binding makes this at most one account.
        const account = ctx.readModel.account(call.login);
        const matching = account && (type === null || account.type === type) && (after === null || account.login > after) ? [account] : [];
        const { items, nextCursor } = cut(matching, limit, (a) => a.login);
        return { status: 200, body: { data: items.map((a) => accountItemJson(a, ctx.readModel.metrics(a))), next_cursor: nextCursor } };
      },
    },
    {
      method: 'GET', pattern: '/v1/accounts/:login', scope: 'read',
      handle: (call) => {
        readQuery(call.query, []);
        const login = call.params[0]!;
        if (login !== call.login) throw notFound('account', login);
        const account = visible(login);
        return { status: 200, body: accountDetailJson(account, ctx.readModel.metrics(account)) };
      },
    },
  ];
}
