// Operator authentication for the console's JSON API: `Authorization: Bearer <admin_token>`
// (DECISIONS "Console"). The token comes from the config, else the fixture, else a file generated
// in the data directory on first start.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config/types.js';

export function resolveAdminToken(config: AppConfig): { token: string; origin: 'config' | 'fixture' | 'file' } {
  if (config.console.admin_token) return { token: config.console.admin_token, origin: 'config' };
  if (config.seed.console.admin_token) return { token: config.seed.console.admin_token, origin: 'fixture' };
  const file = path.join(config.data_dir, 'admin_token');
  try {
    return { token: fs.readFileSync(file, 'utf8').trim(), origin: 'file' };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    const token = randomBytes(24).toString('base64url');
    fs.writeFileSync(file, token + '\n', { mode: 0o600, flag: 'wx' });
    return { token, origin: 'file' };
  }
}

/** Constant-time check of an Authorization header against the token (hashing equalises lengths). */
export function bearerMatches(header: string, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header);
  if (!m) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}
