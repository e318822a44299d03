// Records owned by the main thread (the shards own accounts, orders and positions).
import type { Sizing, UnixMs } from '../engine/types.js';
import type { KeyScope, KeyStatus } from '../config/types.js';
import { table } from './table.js';

/** An API key. `secret` is sealed at rest (see secret-box.ts); `status` Expired is derived from expiresAt. */
export interface KeyRecord {
  readonly id: string;
  readonly sealedSecret: string;
  readonly name: string;
  readonly login: string;
  readonly scopes: readonly KeyScope[];
  /** Requests per second for reads; burst is twice this (DECISIONS "Rate limits"). */
  readonly rateLimit: number;
  readonly ipWhitelist: readonly string[];
  readonly expiresAt: UnixMs | null;
  /** Stored status: Active or Paused; Expired is computed from expiresAt. */
  readonly status: Exclude<KeyStatus, 'Expired'>;
  readonly createdAt: UnixMs;
  readonly revokedAt: UnixMs | null;
  /** Key-level kill switch. */
  readonly halted: boolean;
}

export interface UserRecord {
  readonly id: string;
  /** scrypt$N$r$p$salt$hash (base64 parts). */
  readonly passwordHash: string;
  readonly sealedTotpSecret: string;
  readonly createdAt: UnixMs;
}

export interface WebhookTarget { readonly login: string; readonly sizing: Sizing }

export interface WebhookRecord {
  readonly id: string;
  readonly user: string;
  readonly sealedSecret: string;
  readonly symbols: readonly string[];
  readonly targets: readonly WebhookTarget[];
  readonly paused: boolean;
  readonly createdAt: UnixMs;
}

export const KEYS = table<string, KeyRecord>('keys');
export const USERS = table<string, UserRecord>('users');
export const WEBHOOKS = table<string, WebhookRecord>('webhooks');

export function keyStatus(key: KeyRecord, nowMs: UnixMs): KeyStatus {
  if (key.expiresAt !== null && nowMs >= key.expiresAt) return 'Expired';
  return key.status;
}
