// StandardHeader of an inbound message: what the session checks before the body (sequence
// number, CompIDs, SendingTime, PossDup). Body problems do not fail it: the session still needs
// MsgSeqNum to consume the number of a message it then rejects.
import { FIX44_MSG_TYPES, SessionRejectReason, Tag } from '../../dictionary.js';
import type { FixProblem } from '../problem.js';
import { sessionReject } from '../problem.js';
import type { FixReader } from '../reader.js';

export interface FixHeader {
  readonly msgType: string;
  readonly senderCompId: string;
  readonly targetCompId: string;
  readonly msgSeqNum: number;
  readonly sendingTimeMs: number;
  readonly possDup: boolean;
  readonly possResend: boolean;
  readonly origSendingTimeMs: number | null;
}

export function readHeader(r: FixReader): FixHeader | FixProblem {
  r.beginRead();
  const msgType = r.msgType;
  if (msgType === '') r.fail(sessionReject(SessionRejectReason.RequiredTagMissing), Tag.MsgType);
  else if (!FIX44_MSG_TYPES.has(msgType)) r.fail(sessionReject(SessionRejectReason.InvalidMsgType), Tag.MsgType);
  const header: FixHeader = {
    msgType,
    senderCompId: r.reqStr(Tag.SenderCompID),
    targetCompId: r.reqStr(Tag.TargetCompID),
    msgSeqNum: r.reqIntAtLeast(Tag.MsgSeqNum, 1),
    sendingTimeMs: r.reqUtcTimestamp(Tag.SendingTime),
    possDup: r.bool(Tag.PossDupFlag) ?? false,
    possResend: r.bool(Tag.PossResend) ?? false,
    origSendingTimeMs: r.utcTimestamp(Tag.OrigSendingTime),
  };
  return r.readProblem() ?? header;
}
