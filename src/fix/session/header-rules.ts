// The checks an in-session message's StandardHeader and a SequenceReset must pass, as pure
// verdicts the session applies: SendingTime within the accepted skew, the session's CompIDs,
// OrigSendingTime with PossDupFlag (QuickFIX's order: time, CompID, then PossDup), and NewSeqNo
// never lowering the expected number.
import type { FixHeader } from '../codec/inbound/header.js';
import type { SequenceReset } from '../codec/inbound/session.js';
import type { SessionRejectFields } from '../codec/outbound/session.js';
import { rejectText, sessionReject } from '../codec/problem.js';
import { MsgType, SessionRejectReason, Tag } from '../dictionary.js';
import { type SessionRules, sendingTimeSkewText } from './logon-rules.js';
import type { UnixMs } from '../../engine/types.js';

export interface HeaderFault {
  readonly reject: SessionRejectFields;
  /** The Logout that follows when the session cannot be trusted any more; null: it goes on. */
  readonly logout: string | null;
}

export function headerFault(h: FixHeader, clientCompId: string, rules: SessionRules, nowMs: UnixMs): HeaderFault | null {
  const base = { refSeqNum: h.msgSeqNum, refMsgType: h.msgType };
  const skew = sendingTimeSkewText(h, rules, nowMs);
  if (skew !== null) {
    return { reject: { ...base, refTagId: Tag.SendingTime, reason: SessionRejectReason.SendingTimeAccuracyProblem, text: skew }, logout: 'SendingTime accuracy problem' };
  }
  if (h.senderCompId !== clientCompId || h.targetCompId !== rules.ourCompId) {
    const tag = h.senderCompId !== clientCompId ? Tag.SenderCompID : Tag.TargetCompID;
    const text = `CompID problem: expected SenderCompID ${clientCompId} and TargetCompID ${rules.ourCompId}, received ${h.senderCompId} and ${h.targetCompId}`;
    return { reject: { ...base, refTagId: tag, reason: SessionRejectReason.CompIdProblem, text }, logout: 'CompID problem' };
  }
  if (!h.possDup) return null;
  if (h.origSendingTimeMs === null) {
    // QuickFIX RequiresOrigSendingTime (case 2g): rejected, the session goes on.
    const reason = SessionRejectReason.RequiredTagMissing;
    return { reject: { ...base, refTagId: Tag.OrigSendingTime, reason, text: rejectText(sessionReject(reason), Tag.OrigSendingTime) }, logout: null };
  }
  if (h.origSendingTimeMs > h.sendingTimeMs) {
    return {
      reject: { ...base, refTagId: Tag.OrigSendingTime, reason: SessionRejectReason.SendingTimeAccuracyProblem, text: 'SendingTime accuracy problem: OrigSendingTime (122) is later than SendingTime (52)' },
      logout: 'SendingTime accuracy problem',
    };
  }
  return null;
}

function newSeqNoReject(seq: number, why: string): SessionRejectFields {
  const reason = SessionRejectReason.ValueIsIncorrect;
  return { refSeqNum: seq, refTagId: Tag.NewSeqNo, refMsgType: MsgType.SequenceReset, reason, text: `${rejectText(sessionReject(reason), Tag.NewSeqNo)}: ${why}` };
}

/** GapFill (processed in sequence): NewSeqNo must lie above the message's own number. */
export function gapFillFault(m: SequenceReset, seq: number): SessionRejectFields | null {
  return m.newSeqNo > seq ? null : newSeqNoReject(seq, `NewSeqNo ${m.newSeqNo} must be greater than MsgSeqNum ${seq}`);
}

/** Reset mode: MsgSeqNum is ignored; NewSeqNo below the expected number would lower it (373=5, case 11c). */
export function resetFault(m: SequenceReset, expected: number, seq: number): SessionRejectFields | null {
  return m.newSeqNo >= expected ? null : newSeqNoReject(seq, `NewSeqNo ${m.newSeqNo} is below the expected MsgSeqNum ${expected}`);
}
