// The FIX gateway's constants and the session configuration derived from config `fix`.
import type { AppConfig } from '../config/types.js';
import type { SessionSpec } from '../engine/types.js';
import type { SessionConfig } from './session/types.js';

/** QuickFIX MaxLatency default; Artio's sending-time window is 2 min too. */
export const SENDING_TIME_SKEW_MS = 120_000;
/** QuickFIX LogoutTimeout default. */
export const LOGOUT_TIMEOUT_MS = 2000;
/** Far above any message this gateway takes (an AN with parties is under 1 KiB). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Spec "Limits": 50 messages per second per session, burst 100. */
export const THROTTLE = { ratePerSec: 50, burst: 100 } as const;

export function sessionConfigOf(fix: AppConfig['fix']): SessionConfig {
  return {
    ourCompId: fix.target_comp_id,
    heartBtIntSec: fix.heartbeat_s,
    maxSendingTimeSkewMs: SENDING_TIME_SKEW_MS,
    logonTimeoutMs: fix.logon_timeout_ms,
    logoutTimeoutMs: LOGOUT_TIMEOUT_MS,
    maxMessageBytes: MAX_MESSAGE_BYTES,
    throttle: THROTTLE,
  };
}

/** "from Sun 23:05 to Fri 23:55 (UTC+03:00)" for refusal texts. */
export function hoursText(spec: SessionSpec): string {
  return spec === '24x7' ? 'at any time' : `from ${spec.open} to ${spec.close} (UTC${spec.tz})`;
}
