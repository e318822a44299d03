// The commands of `tas`: each maps its words, arguments and options to one call of the console's
// JSON API (docs/console.md) and says how to print the answer. Operator commands; every one works
// with the bearer admin token. Nothing here moves funds: there is no such call to make.
import { numberOption, requireOption, UsageError, type OptionKind, type Parsed } from './args.js';
import type { ConsoleClient } from './client.js';
import { enrolmentText } from './enrolment-text.js';
import { table } from './table.js';

export interface CliCommand {
  readonly words: readonly string[];
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, OptionKind>>;
  readonly summary: string;
  /** Resolves with the answer and, for listings, its text form. */
  run(api: ConsoleClient, p: Parsed): Promise<{ readonly json: unknown; readonly text?: string }>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are the API's JSON, printed as received */
type Json = any;

const enc = encodeURIComponent;
const onOff = (text: string | undefined): boolean => {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new UsageError(`expected on or off, got ${JSON.stringify(text ?? '')}`);
};
const arg = (p: Parsed, i: number, name: string): string => {
  const value = p.positional[i];
  if (value === undefined) throw new UsageError(`missing ${name}`);
  return value;
};
const csv = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '');

/** `LOGIN:fixed:0.1`, `LOGIN:multiplier:2`, `LOGIN:risk_percent:1`. */
function target(text: string): { login: string; sizing: Record<string, unknown> } {
  const [login, type, value] = text.split(':');
  const field = { fixed: 'lots', multiplier: 'factor', risk_percent: 'percent' }[type ?? ''];
  const n = Number(value);
  if (!login || field === undefined || value === undefined || !Number.isFinite(n)) {
    throw new UsageError(`--target must be LOGIN:fixed:LOTS, LOGIN:multiplier:FACTOR or LOGIN:risk_percent:PERCENT, got ${JSON.stringify(text)}`);
  }
  return { login, sizing: { type, [field]: n } };
}

function pageQuery(p: Parsed, extra: readonly string[] = []): string {
  const q = new URLSearchParams();
  for (const name of ['limit', 'cursor', ...extra]) {
    const v = p.values.get(name);
    if (v !== undefined) q.set(name, v);
  }
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

const keyTable = (keys: Json[]): string => table(keys, [
  { title: 'id', value: (k) => k.id },
  { title: 'name', value: (k) => k.name },
  { title: 'account', value: (k) => (k.account ? `${k.login} ${k.account.type} ${k.account.group}` : k.login) },
  { title: 'scopes', value: (k) => k.scopes.join(',') },
  { title: 'rate', value: (k) => `${k.rate_limit}/s`, right: true },
  { title: 'status', value: (k) => (k.kill_switch.active ? `${k.status}+halted` : k.status) },
  { title: 'expires', value: (k) => k.expires_at ?? 'never' },
  { title: 'last used', value: (k) => (k.last_used ? `${k.last_used.at} ${k.last_used.ip ?? ''}` : 'never') },
  { title: 'requests', value: (k) => String(k.stats.requests), right: true },
  { title: 'errors', value: (k) => `${(k.stats.error_rate * 100).toFixed(1)}%`, right: true },
  { title: 'p50/p99 ms', value: (k) => `${k.stats.latency_ms.p50 ?? '-'}/${k.stats.latency_ms.p99 ?? '-'}`, right: true },
  { title: 'advisories', value: (k) => k.advisories.map((a: Json) => a.code).join(',') || '-' },
]);

const simple = (words: string[], args: string[], summary: string, call: (api: ConsoleClient, p: Parsed) => Promise<unknown>, options: Record<string, OptionKind> = {}): CliCommand =>
  ({ words, args, options, summary, run: async (api, p) => ({ json: await call(api, p) }) });

export const COMMANDS: readonly CliCommand[] = [
  {
    words: ['keys', 'list'], args: [], options: { login: 'value' }, summary: 'list keys with status, advisories and statistics',
    async run(api, p) {
      const login = p.values.get('login');
      const json = (await api.call('GET', `/keys${login === undefined ? '' : `?login=${enc(login)}`}`)) as Json;
      return { json, text: keyTable(json.data) };
    },
  },
  simple(['keys', 'show'], ['ID'], 'one key with every field', (api, p) => api.call('GET', `/keys/${enc(arg(p, 0, 'ID'))}`)),
  simple(['keys', 'create'], [], 'create a key; prints its secret (shown once)', (api, p) => {
    const expires = p.values.get('expires') ?? 'none';
    const body: Record<string, unknown> = {
      name: requireOption(p, 'name'),
      login: requireOption(p, 'login'),
      scopes: csv(p.values.get('scopes') ?? 'read'),
      rate_limit: numberOption(p, 'rate-limit') ?? 20,
      expires_at: expires === 'none' ? null : expires,
      ip_whitelist: p.lists.get('ip') ?? [],
    };
    const totp = p.values.get('totp');
    if (totp !== undefined) body['totp'] = totp;
    return api.call('POST', '/keys', body);
  }, { name: 'value', login: 'value', scopes: 'value', 'rate-limit': 'value', expires: 'value', ip: 'list', totp: 'value' }),
  simple(['keys', 'pause'], ['ID'], 'pause a key (its calls get 401)', (api, p) => api.call('POST', `/keys/${enc(arg(p, 0, 'ID'))}/pause`)),
  simple(['keys', 'resume'], ['ID'], 'resume a paused key', (api, p) => api.call('POST', `/keys/${enc(arg(p, 0, 'ID'))}/resume`)),
  simple(['keys', 'revoke'], ['ID'], 'revoke a key for good', (api, p) => {
    const totp = p.values.get('totp');
    return api.call('DELETE', `/keys/${enc(arg(p, 0, 'ID'))}`, totp === undefined ? undefined : { totp });
  }, { totp: 'value' }),
  simple(['keys', 'kill-switch'], ['ID', 'on|off'], "set a key's kill switch (its trading calls get 423)",
    (api, p) => api.call('PUT', `/keys/${enc(arg(p, 0, 'ID'))}/kill-switch`, { active: onOff(p.positional[1]) })),
  simple(['keys', 'stats'], ['ID'], "a key's request statistics", (api, p) => api.call('GET', `/keys/${enc(arg(p, 0, 'ID'))}/stats`)),
  simple(['keys', 'series'], ['ID'], "a key's requests, errors and latency over time (--step 10s: last hour, 1m: last day)",
    (api, p) => api.call('GET', `/keys/${enc(arg(p, 0, 'ID'))}/series${pageQuery(p, ['step'])}`), { step: 'value' }),
  {
    words: ['users', 'list'], args: [], options: {}, summary: 'console users',
    async run(api) {
      const json = (await api.call('GET', '/users')) as Json;
      return { json, text: table(json.data as Json[], [{ title: 'user', value: (u) => u.id }, { title: 'created', value: (u) => u.created_at }]) };
    },
  },
  {
    words: ['users', 'create'], args: ['USER'], options: { password: 'value' },
    summary: 'create a console user; prints the TOTP secret as an otpauth URI and a QR code to scan (and the password when generated)',
    async run(api, p) {
      const body: Record<string, unknown> = { id: arg(p, 0, 'USER') };
      const password = p.values.get('password');
      if (password !== undefined) body['password'] = password;
      const json = (await api.call('POST', '/users', body)) as Json;
      const lines = [`user ${json.id} created`];
      if (json.password !== undefined) lines.push(`password: ${json.password}   (generated; shown this once)`);
      return { json, text: [...lines, await enrolmentText(json.totp)].join('\n') };
    },
  },
  {
    words: ['users', 'enrol'], args: ['USER'], options: { totp: 'value' },
    summary: "start moving a user to a new authenticator app (a new secret; confirm with a code of it); the old app works until then",
    async run(api, p) {
      const totp = p.values.get('totp');
      const json = (await api.call('POST', `/users/${enc(arg(p, 0, 'USER'))}/totp/enrol`, totp === undefined ? undefined : { totp })) as Json;
      return { json, text: [await enrolmentText(json), `confirm by ${json.expires_at}: tas users confirm ${json.user} --totp CODE`].join('\n') };
    },
  },
  simple(['users', 'confirm'], ['USER'], 'confirm a new authenticator with a code it shows',
    (api, p) => api.call('POST', `/users/${enc(arg(p, 0, 'USER'))}/totp/confirm`, { totp: requireOption(p, 'totp') }), { totp: 'value' }),
  {
    words: ['accounts', 'list'], args: [], options: {}, summary: 'accounts with equity and kill switch flags',
    async run(api) {
      const json = (await api.call('GET', '/accounts')) as Json;
      return {
        json,
        text: table(json.data as Json[], [
          { title: 'login', value: (a) => a.login }, { title: 'user', value: (a) => a.user }, { title: 'type', value: (a) => a.type },
          { title: 'group', value: (a) => a.group }, { title: 'balance', value: (a) => `${a.balance} ${a.currency}`, right: true },
          { title: 'equity', value: (a) => `${a.equity} ${a.currency}`, right: true },
          { title: 'account switch', value: (a) => (a.kill_switch.active ? 'halted' : 'off') }, { title: 'user switch', value: (a) => a.user_kill_switch },
        ]),
      };
    },
  },
  {
    words: ['accounts', 'show'], args: ['LOGIN'], options: {}, summary: 'one account: money, open positions and pending orders',
    async run(api, p) {
      const a = (await api.call('GET', `/accounts/${enc(arg(p, 0, 'LOGIN'))}`)) as Json;
      const money = (x: number | null): string => (x === null ? '-' : `${x.toFixed(2)} ${a.currency}`);
      const key = (x: Json): string => x.key_name ?? x.key_id ?? (x.webhook_id ? `webhook ${x.webhook_id}` : '-');
      const text = [
        `${a.login}  ${a.type} ${a.group}  ${a.server}  1:${a.leverage}`,
        `balance ${money(a.balance)}  equity ${money(a.equity)}  margin ${money(a.margin)}  free margin ${money(a.free_margin)}  margin level ${a.margin_level === 0 ? '-' : `${a.margin_level}%`}`,
        '',
        a.positions.length === 0 ? 'no open positions' : table(a.positions as Json[], [
          { title: 'ticket', value: (x) => String(x.ticket), right: true }, { title: 'symbol', value: (x) => x.symbol }, { title: 'side', value: (x) => x.side },
          { title: 'lots', value: (x) => String(x.volume), right: true }, { title: 'open', value: (x) => String(x.open_price), right: true },
          { title: 'price', value: (x) => String(x.current_price ?? '-'), right: true }, { title: 'profit', value: (x) => money(x.profit), right: true },
          { title: 'source', value: (x) => x.source }, { title: 'key', value: key },
        ]),
        '',
        a.orders.length === 0 ? 'no pending orders' : table(a.orders as Json[], [
          { title: 'order', value: (x) => x.id, right: true }, { title: 'symbol', value: (x) => x.symbol }, { title: 'type', value: (x) => `${x.side} ${x.type}` },
          { title: 'lots', value: (x) => String(x.volume), right: true }, { title: 'price', value: (x) => String(x.price), right: true },
          { title: 'source', value: (x) => x.source }, { title: 'key', value: key },
        ]),
      ].join('\n');
      return { json: a, text };
    },
  },
  simple(['accounts', 'equity'], ['LOGIN'], 'balance and equity over time (--range 1h|1d|7d|30d)',
    (api, p) => api.call('GET', `/accounts/${enc(arg(p, 0, 'LOGIN'))}/equity${pageQuery(p, ['range'])}`), { range: 'value' }),
  simple(['accounts', 'kill-switch'], ['LOGIN', 'on|off'], "set an account's kill switch",
    (api, p) => api.call('PUT', `/accounts/${enc(arg(p, 0, 'LOGIN'))}/kill-switch`, { active: onOff(p.positional[1]) })),
  simple(['kill-switch', 'status'], ['USER'], "a user's kill switch state", (api, p) => api.call('GET', `/users/${enc(arg(p, 0, 'USER'))}/kill-switch`)),
  simple(['kill-switch', 'trigger'], ['USER'], "trigger a user's kill switch; prints what it closed",
    (api, p) => api.call('POST', `/users/${enc(arg(p, 0, 'USER'))}/kill-switch/trigger`)),
  simple(['kill-switch', 'reset'], ['USER'], "reset (arm) a user's kill switch", (api, p) => {
    const totp = p.values.get('totp');
    return api.call('POST', `/users/${enc(arg(p, 0, 'USER'))}/kill-switch/reset`, totp === undefined ? undefined : { totp });
  }, { totp: 'value' }),
  simple(['kill-switch', 'history'], ['USER'], 'past triggers and resets with their reports',
    (api, p) => api.call('GET', `/users/${enc(arg(p, 0, 'USER'))}/kill-switch/history${pageQuery(p)}`), { limit: 'value' }),
  {
    words: ['webhooks', 'list'], args: [], options: {}, summary: 'signal webhooks',
    async run(api) {
      const json = (await api.call('GET', '/webhooks')) as Json;
      return {
        json,
        text: table(json.data as Json[], [
          { title: 'id', value: (w) => w.id }, { title: 'user', value: (w) => w.user }, { title: 'symbols', value: (w) => w.symbols.join(',') },
          { title: 'targets', value: (w) => w.targets.map((t: Json) => `${t.login}:${t.sizing.type}`).join(',') },
          { title: 'status', value: (w) => (w.paused ? 'paused' : 'active') },
        ]),
      };
    },
  },
  simple(['webhooks', 'create'], [], 'create a webhook; prints its secret (shown once)', (api, p) => {
    const body: Record<string, unknown> = {
      user: requireOption(p, 'user'), symbols: csv(requireOption(p, 'symbols')), targets: (p.lists.get('target') ?? []).map(target),
    };
    const id = p.values.get('id');
    if (id !== undefined) body['id'] = id;
    if (p.flags.has('paused')) body['paused'] = true;
    return api.call('POST', '/webhooks', body);
  }, { user: 'value', symbols: 'value', target: 'list', id: 'value', paused: 'flag' }),
  simple(['webhooks', 'edit'], ['ID'], "change a webhook's symbols and/or targets", (api, p) => {
    const body: Record<string, unknown> = {};
    const symbols = p.values.get('symbols');
    if (symbols !== undefined) body['symbols'] = csv(symbols);
    const targets = p.lists.get('target');
    if (targets !== undefined) body['targets'] = targets.map(target);
    return api.call('PUT', `/webhooks/${enc(arg(p, 0, 'ID'))}`, body);
  }, { symbols: 'value', target: 'list' }),
  simple(['webhooks', 'pause'], ['ID'], 'pause a webhook (signals get 423)', (api, p) => api.call('POST', `/webhooks/${enc(arg(p, 0, 'ID'))}/pause`)),
  simple(['webhooks', 'resume'], ['ID'], 'resume a webhook', (api, p) => api.call('POST', `/webhooks/${enc(arg(p, 0, 'ID'))}/resume`)),
  simple(['webhooks', 'rotate-secret'], ['ID'], 'new webhook secret (shown once)', (api, p) => api.call('POST', `/webhooks/${enc(arg(p, 0, 'ID'))}/rotate-secret`)),
  simple(['webhooks', 'signals'], ['ID'], "a webhook's signal log, newest first",
    (api, p) => api.call('GET', `/webhooks/${enc(arg(p, 0, 'ID'))}/signals${pageQuery(p)}`), { limit: 'value', cursor: 'value' }),
  {
    words: ['quotes', 'list'], args: [], options: {}, summary: "every symbol's latest quote and trading session",
    async run(api) {
      const json = (await api.call('GET', '/quotes')) as Json;
      return {
        json,
        text: table(json.data as Json[], [
          { title: 'symbol', value: (q) => q.symbol }, { title: 'bid', value: (q) => (q.bid === null ? '-' : q.bid.toFixed(q.digits)), right: true },
          { title: 'ask', value: (q) => (q.ask === null ? '-' : q.ask.toFixed(q.digits)), right: true },
          { title: 'session', value: (q) => (q.session.open ? 'open' : 'closed') },
          { title: 'next change', value: (q) => q.session.next_change ?? '24x7' },
        ]),
      };
    },
  },
  simple(['quotes', 'push'], ['SYMBOL', 'BID', 'ASK'], 'push a tick (price source "push")', (api, p) => {
    const price = (i: number, name: string): number => {
      const n = Number(arg(p, i, name));
      if (!Number.isFinite(n)) throw new UsageError(`${name} must be a number`);
      return n;
    };
    return api.call('POST', '/quotes', { symbol: arg(p, 0, 'SYMBOL'), bid: price(1, 'BID'), ask: price(2, 'ASK') });
  }),
  simple(['orders', 'place'], [], 'place an order as manual, strategy or copy trading', (api, p) => {
    const body: Record<string, unknown> = {
      login: requireOption(p, 'login'), symbol: requireOption(p, 'symbol'), side: requireOption(p, 'side'),
      type: p.values.get('type') ?? 'market', volume: numberOption(p, 'volume'), source: p.values.get('source') ?? 'manual',
    };
    if (body['volume'] === undefined) throw new UsageError('--volume is required');
    for (const name of ['price', 'sl', 'tp']) {
      const n = numberOption(p, name);
      if (n !== undefined) body[name] = n;
    }
    const clientId = p.values.get('client-id');
    if (clientId !== undefined) body['client_id'] = clientId;
    return api.call('POST', '/orders', body);
  }, { login: 'value', symbol: 'value', side: 'value', type: 'value', volume: 'value', price: 'value', sl: 'value', tp: 'value', 'client-id': 'value', source: 'value' }),
  {
    words: ['audit'], args: [], options: { user: 'value', limit: 'value', cursor: 'value' }, summary: 'the audit log, newest first',
    async run(api, p) {
      const json = (await api.call('GET', `/audit${pageQuery(p, ['user'])}`)) as Json;
      const rows = table(json.data as Json[], [
        { title: 'seq', value: (e) => String(e.seq), right: true }, { title: 'at', value: (e) => e.at }, { title: 'actor', value: (e) => e.actor },
        { title: 'ip', value: (e) => e.ip }, { title: 'action', value: (e) => e.action }, { title: 'target', value: (e) => e.target ?? '' },
        { title: 'outcome', value: (e) => `${e.outcome} ${e.status}` }, { title: 'error', value: (e) => (e.error ? e.error.name : '') },
      ]);
      return { json, text: json.next_cursor === null ? rows : `${rows}\n(more: --cursor ${json.next_cursor})` };
    },
  },
  simple(['routes'], [], 'every console API route', (api) => api.call('GET', '/routes')),
];
/* eslint-enable @typescript-eslint/no-explicit-any */
