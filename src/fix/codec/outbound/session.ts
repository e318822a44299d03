// Outbound session-level messages (msgcat admin in FIX44.xml).
import {
  EncryptMethod, MsgType, type SessionRejectReasonValue, Tag, type ValueOf,
} from '../../dictionary.js';
import type { FixProblem } from '../problem.js';
import type { FixWriter, OutboundHeader } from '../writer.js';
import { encodeBusinessMessageReject } from './business-reject.js';

export interface LogonReply {
  readonly encryptMethod: ValueOf<typeof EncryptMethod>;
  readonly heartBtIntSec: number;
  readonly resetSeqNumFlag: boolean;
}

export function encodeLogon(w: FixWriter, h: OutboundHeader, m: LogonReply): void {
  w.begin(MsgType.Logon, h);
  w.int(Tag.EncryptMethod, m.encryptMethod);
  w.int(Tag.HeartBtInt, m.heartBtIntSec);
  if (m.resetSeqNumFlag) w.bool(Tag.ResetSeqNumFlag, true);
  w.finish();
}

/** testReqId answers a TestRequest; null for a plain heartbeat. */
export function encodeHeartbeat(w: FixWriter, h: OutboundHeader, testReqId: string | null): void {
  w.begin(MsgType.Heartbeat, h);
  if (testReqId !== null) w.str(Tag.TestReqID, testReqId);
  w.finish();
}

export function encodeTestRequest(w: FixWriter, h: OutboundHeader, testReqId: string): void {
  w.begin(MsgType.TestRequest, h);
  w.str(Tag.TestReqID, testReqId);
  w.finish();
}

/** endSeqNo 0 asks for everything from beginSeqNo on. */
export function encodeResendRequest(w: FixWriter, h: OutboundHeader, beginSeqNo: number, endSeqNo: number): void {
  w.begin(MsgType.ResendRequest, h);
  w.int(Tag.BeginSeqNo, beginSeqNo);
  w.int(Tag.EndSeqNo, endSeqNo);
  w.finish();
}

export interface SessionRejectFields {
  readonly refSeqNum: number;
  readonly refTagId: number | null;
  readonly refMsgType: string | null;
  readonly reason: SessionRejectReasonValue;
  readonly text: string | null;
}

export function encodeReject(w: FixWriter, h: OutboundHeader, m: SessionRejectFields): void {
  w.begin(MsgType.Reject, h);
  w.int(Tag.RefSeqNum, m.refSeqNum);
  if (m.refTagId !== null) w.int(Tag.RefTagID, m.refTagId);
  if (m.refMsgType !== null && m.refMsgType !== '') w.str(Tag.RefMsgType, m.refMsgType);
  w.int(Tag.SessionRejectReason, m.reason);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}

/** The answer to a FixProblem: a Reject (3) for a session problem, a BusinessMessageReject (j) otherwise. */
export function encodeProblem(w: FixWriter, h: OutboundHeader, p: FixProblem): void {
  const r = p.reject;
  if (r.kind === 'session') {
    encodeReject(w, h, { refSeqNum: p.refSeqNum, refTagId: p.refTagId, refMsgType: p.refMsgType, reason: r.reason, text: p.text });
  } else {
    encodeBusinessMessageReject(w, h, {
      refSeqNum: p.refSeqNum, refMsgType: p.refMsgType, businessRejectRefId: null, reason: r.reason, text: p.text,
    });
  }
}

export interface SequenceResetFields {
  /** GapFillFlag=Y: the skipped numbers were admin messages (sent with PossDup). */
  readonly gapFill: boolean;
  readonly newSeqNo: number;
}

export function encodeSequenceReset(w: FixWriter, h: OutboundHeader, m: SequenceResetFields): void {
  w.begin(MsgType.SequenceReset, h);
  if (m.gapFill) w.bool(Tag.GapFillFlag, true);
  w.int(Tag.NewSeqNo, m.newSeqNo);
  w.finish();
}

export function encodeLogout(w: FixWriter, h: OutboundHeader, text: string | null): void {
  w.begin(MsgType.Logout, h);
  if (text !== null && text !== '') w.str(Tag.Text, text);
  w.finish();
}
