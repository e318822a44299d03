// What a FIX session is configured with and what it needs from its surroundings: the clock, a
// log, the account-level Logon decision and, once logged on, the application it feeds.
import type { FixHeader } from '../codec/inbound/header.js';
import type { Logon } from '../codec/inbound/session.js';
import type { FixReader } from '../codec/reader.js';
import type { SessionRules } from './logon-rules.js';
import type { UnixMs } from '../../engine/types.js';

export interface SessionConfig extends SessionRules {
  readonly logonTimeoutMs: number;
  /** How long our Logout waits for the client's before the connection is closed anyway. */
  readonly logoutTimeoutMs: number;
  /** A frame longer than this is garbled (dropped). */
  readonly maxMessageBytes: number;
  /** Application messages per second and burst (DECISIONS: 50/s, burst 100). */
  readonly throttle: { readonly ratePerSec: number; readonly burst: number };
}

export interface SessionLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LogonRequest {
  readonly header: FixHeader;
  readonly logon: Logon;
  readonly remoteAddress: string;
  readonly nowMs: UnixMs;
}

/** The application bound to a logged-on session. */
export interface SessionApp {
  /** An in-sequence application message; `throttled` when it is over the session's message rate. */
  onMessage(msgType: string, r: FixReader, h: FixHeader, throttled: boolean): void;
  /** The connection drained a backlog (conflated output may go out now). */
  onWritable(): void;
  /** The session ended, after a Logout handshake or dropped without one; called once. */
  onEnd(end: SessionEnd): void;
}

/** `logout`: the client's Logout ended it (a clean end); `dropped`: anything else (socket gone, timeouts, refusals). */
export type SessionEnd = 'logout' | 'dropped';

export type LogonVerdict =
  | { readonly ok: true; readonly app: SessionApp }
  | { readonly ok: false; readonly text: string };

export interface SessionCounters {
  /** `msgType` '' is a session-level message the gateway sent. */
  message(direction: 'in' | 'out', msgType: string): void;
  loggedOn(): void;
  ended(): void;
}
