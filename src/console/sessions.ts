// Console sessions of logged-in users (DECISIONS "Console"): a random 256-bit id in an HttpOnly,
// SameSite=Strict cookie, and on the server the session with its CSRF token. A session ends 30
// minutes after its last use or 12 hours after the login, whichever comes first, or at logout.
// Sessions live in memory: a restart logs every user out (they log in again with password + TOTP).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { UnixMs } from '../engine/types.js';
import type { Clock } from '../base/clock.js';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;
export const SESSION_COOKIE = 'tas_session';
/** 32 random bytes, base64url: what a session id looks like (anything else is not looked up). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const SWEEP_MS = 60_000;

export interface Session {
  readonly id: string;
  readonly user: string;
  /** Synchronizer token: sent back in `X-CSRF-Token` on every state-changing call. */
  readonly csrfToken: string;
  readonly createdAtMs: UnixMs;
  readonly ip: string;
  lastSeenMs: UnixMs;
}

export const randomToken = (): string => randomBytes(32).toString('base64url');

/** When the session ends if it is not used again. */
export function sessionEndsAtMs(s: Session): UnixMs {
  return Math.min(s.lastSeenMs + SESSION_IDLE_MS, s.createdAtMs + SESSION_ABSOLUTE_MS);
}

export function csrfMatches(session: Session, sent: string): boolean {
  const expected = Buffer.from(session.csrfToken);
  const got = Buffer.from(sent);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly clock: Clock) {
    this.timer = setInterval(() => this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  create(user: string, ip: string): Session {
    const nowMs = this.clock.nowMs();
    const session: Session = { id: randomToken(), user, csrfToken: randomToken(), createdAtMs: nowMs, lastSeenMs: nowMs, ip };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session of a cookie value, its idle time restarted; null when unknown or ended. */
  use(id: string): Session | null {
    if (!SESSION_ID.test(id)) return null;
    const session = this.sessions.get(id);
    if (session === undefined) return null;
    const nowMs = this.clock.nowMs();
    if (nowMs >= sessionEndsAtMs(session)) {
      this.sessions.delete(id);
      return null;
    }
    session.lastSeenMs = nowMs;
    return session;
  }

  end(id: string): void { this.sessions.delete(id); }

  get size(): number { return this.sessions.size; }

  close(): void { clearInterval(this.timer); }

  private sweep(): void {
    const nowMs = this.clock.nowMs();
    for (const [id, s] of this.sessions) if (nowMs >= sessionEndsAtMs(s)) this.sessions.delete(id);
  }
}
