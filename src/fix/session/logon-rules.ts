// What a Logon must carry before the account is even looked at (spec "FIX 4.4 gateway", DECISIONS
// "FIX 4.4"): 98=0, 108 = the configured HeartBtInt (30), 141=Y, 553 and 554, our TargetCompID and
// a SendingTime within the accepted skew. Each refusal text says which field and why; the session
// sends it as the Logout's Text (58) and disconnects.
import type { FixHeader } from '../codec/inbound/header.js';
import type { Logon } from '../codec/inbound/session.js';
import { EncryptMethod } from '../dictionary.js';
import { writeUtcTimestamp } from '../codec/time.js';
import type { UnixMs } from '../../engine/types.js';

export interface SessionRules {
  /** Our CompID: the client's TargetCompID (56). */
  readonly ourCompId: string;
  readonly heartBtIntSec: number;
  /** |SendingTime − server time| above this is a SendingTime accuracy problem (QuickFIX MaxLatency 120 s). */
  readonly maxSendingTimeSkewMs: number;
}

export function utcText(ms: number): string {
  const buf = Buffer.alloc(21);
  writeUtcTimestamp(buf, 0, ms);
  return buf.toString('latin1');
}

export function sendingTimeSkewText(h: FixHeader, rules: SessionRules, nowMs: UnixMs): string | null {
  if (Math.abs(nowMs - h.sendingTimeMs) <= rules.maxSendingTimeSkewMs) return null;
  return `SendingTime accuracy problem: SendingTime (52) ${utcText(h.sendingTimeMs)} is more than ${rules.maxSendingTimeSkewMs / 1000} s from server time ${utcText(nowMs)}`;
}

export function logonProblem(h: FixHeader, logon: Logon, rules: SessionRules, nowMs: UnixMs): string | null {
  if (h.targetCompId !== rules.ourCompId) return `TargetCompID (56) must be ${rules.ourCompId}, received ${h.targetCompId}`;
  const skew = sendingTimeSkewText(h, rules, nowMs);
  if (skew !== null) return `Invalid Logon message: ${skew}`;
  if (logon.encryptMethod !== EncryptMethod.None) return `EncryptMethod (98) must be 0 (none; TLS encrypts the connection), received ${logon.encryptMethod}`;
  if (logon.heartBtIntSec !== rules.heartBtIntSec) return `HeartBtInt (108) must be ${rules.heartBtIntSec}, received ${logon.heartBtIntSec}`;
  if (!logon.resetSeqNumFlag) return 'ResetSeqNumFlag (141) must be Y: sequence numbers restart at 1 on every Logon';
  if (logon.username === null) return 'Username (553) is required: the API key id';
  if (logon.password === null) return 'Password (554) is required: the API key secret';
  return null;
}
