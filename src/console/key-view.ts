// An API key as the console lists it (spec "API key (console resource)", DECISIONS "Console"):
// name, key id, the account with its type and group, scopes, rate limit, last use (time and
// address), expiry, status, the advisories, the key kill switch and the request statistics.
import type { AccountRecord, UnixMs } from '../engine/types.js';
import type { KeyStatsBook } from '../gateway/stats/key-stats-book.js';
import { KeyStats, type KeyStatsJson } from '../gateway/stats/key-stats.js';
import { iso } from '../gateway/wire.js';
import { keyStatus, type KeyRecord } from '../store/records.js';

export type AdvisoryCode = 'no_expiry' | 'no_ip_whitelist' | 'older_than_12_months';

export interface Advisory { readonly code: AdvisoryCode; readonly message: string }

/** Rotating at least every 12 months is advised (spec, API key "expiry"). */
export const ROTATE_AFTER_MONTHS = 12;

/** `atMs` moved `months` calendar months on (UTC); the 31st of a short month clamps to its last day. */
export function addMonthsUtc(atMs: UnixMs, months: number): UnixMs {
  const d = new Date(atMs);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

export function advisoriesOf(k: KeyRecord, nowMs: UnixMs): Advisory[] {
  const out: Advisory[] = [];
  if (k.expiresAt === null) out.push({ code: 'no_expiry', message: 'the key never expires: give it an expiry date' });
  if (k.ipWhitelist.length === 0) out.push({ code: 'no_ip_whitelist', message: 'the key works from any IP address: add an IP whitelist' });
  if (addMonthsUtc(k.createdAt, ROTATE_AFTER_MONTHS) <= nowMs) {
    out.push({ code: 'older_than_12_months', message: 'the key is older than 12 months: rotate it (create a new key, then revoke this one)' });
  }
  return out;
}

export function statsOf(stats: KeyStatsBook, k: KeyRecord): KeyStatsJson {
  return (stats.get(k.id) ?? new KeyStats(k.id, k.createdAt)).toJson();
}

export function keyJson(k: KeyRecord, account: AccountRecord | undefined, stats: KeyStatsJson, nowMs: UnixMs) {
  return {
    id: k.id,
    name: k.name,
    login: k.login,
    account: account === undefined ? null : { login: account.login, type: account.type, group: account.group, user: account.user },
    scopes: k.scopes,
    rate_limit: k.rateLimit,
    ip_whitelist: k.ipWhitelist,
    created_at: iso(k.createdAt),
    expires_at: k.expiresAt === null ? null : iso(k.expiresAt),
    status: keyStatus(k, nowMs),
    kill_switch: { active: k.halted },
    last_used: stats.last_used_at === null ? null : { at: stats.last_used_at, ip: stats.last_used_ip },
    advisories: advisoriesOf(k, nowMs),
    stats,
  };
}
