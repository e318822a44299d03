// Inbound session-level messages (msgcat admin in FIX44.xml).
import {
  EncryptMethod, SessionRejectReason, type SessionRejectReasonValue, Tag, type ValueOf, valueSet,
} from '../../dictionary.js';
import type { FixProblem } from '../problem.js';
import type { FixReader } from '../reader.js';

const ENCRYPT_METHODS = valueSet(EncryptMethod);
/**
 * CancelOrdersOnDisconnect, a user-defined Logon tag (FIX reserves 5000+ for them; Coinbase uses
 * 8013 for the same): Y cancels the key's orders when the session drops without a Logout.
 */
export const CANCEL_ORDERS_ON_DISCONNECT_TAG = 8013;
const SESSION_REJECT_REASONS = valueSet(SessionRejectReason);

export interface Logon {
  readonly encryptMethod: ValueOf<typeof EncryptMethod>;
  readonly heartBtIntSec: number;
  readonly resetSeqNumFlag: boolean;
  readonly nextExpectedMsgSeqNum: number | null;
  readonly username: string | null;
  readonly password: string | null;
  /** Tag 8013; null when absent (the gateway's config decides). */
  readonly cancelOrdersOnDisconnect: boolean | null;
}

export function readLogon(r: FixReader): Logon | FixProblem {
  r.beginRead();
  const m: Logon = {
    encryptMethod: r.reqEnumInt(Tag.EncryptMethod, ENCRYPT_METHODS),
    // A negative HeartBtInt is out of range (QuickFIX/J case QFJ648_NegativeHeartBtInt).
    heartBtIntSec: r.reqIntAtLeast(Tag.HeartBtInt, 0),
    resetSeqNumFlag: r.bool(Tag.ResetSeqNumFlag) ?? false,
    nextExpectedMsgSeqNum: r.int(Tag.NextExpectedMsgSeqNum),
    username: r.str(Tag.Username),
    password: r.str(Tag.Password),
    cancelOrdersOnDisconnect: r.bool(CANCEL_ORDERS_ON_DISCONNECT_TAG),
  };
  return r.problem() ?? m;
}

export interface Heartbeat { readonly testReqId: string | null }

export function readHeartbeat(r: FixReader): Heartbeat | FixProblem {
  r.beginRead();
  const m: Heartbeat = { testReqId: r.str(Tag.TestReqID) };
  return r.problem() ?? m;
}

export interface TestRequest { readonly testReqId: string }

export function readTestRequest(r: FixReader): TestRequest | FixProblem {
  r.beginRead();
  const m: TestRequest = { testReqId: r.reqStr(Tag.TestReqID) };
  return r.problem() ?? m;
}

/** endSeqNo 0 means "all messages after beginSeqNo" (FIX 4.4 infinity). */
export interface ResendRequest { readonly beginSeqNo: number; readonly endSeqNo: number }

export function readResendRequest(r: FixReader): ResendRequest | FixProblem {
  r.beginRead();
  const m: ResendRequest = { beginSeqNo: r.reqIntAtLeast(Tag.BeginSeqNo, 1), endSeqNo: r.reqIntAtLeast(Tag.EndSeqNo, 0) };
  return r.problem() ?? m;
}

export interface Reject {
  readonly refSeqNum: number;
  readonly refTagId: number | null;
  readonly refMsgType: string | null;
  readonly sessionRejectReason: SessionRejectReasonValue | null;
  readonly text: string | null;
}

export function readReject(r: FixReader): Reject | FixProblem {
  r.beginRead();
  const m: Reject = {
    refSeqNum: r.reqIntAtLeast(Tag.RefSeqNum, 0),
    refTagId: r.int(Tag.RefTagID),
    refMsgType: r.str(Tag.RefMsgType),
    sessionRejectReason: r.enumInt(Tag.SessionRejectReason, SESSION_REJECT_REASONS),
    text: r.str(Tag.Text),
  };
  return r.problem() ?? m;
}

export interface SequenceReset { readonly gapFill: boolean; readonly newSeqNo: number }

export function readSequenceReset(r: FixReader): SequenceReset | FixProblem {
  r.beginRead();
  const m: SequenceReset = { gapFill: r.bool(Tag.GapFillFlag) ?? false, newSeqNo: r.reqIntAtLeast(Tag.NewSeqNo, 1) };
  return r.problem() ?? m;
}

export interface Logout { readonly text: string | null }

export function readLogout(r: FixReader): Logout | FixProblem {
  r.beginRead();
  const m: Logout = { text: r.str(Tag.Text) };
  return r.problem() ?? m;
}
