// What the session answers to a message it cannot take: a session Reject (35=3 with 45/371/372/
// 373/58) or a BusinessMessageReject (35=j with 45/372/380/58).
import {
  type BusinessRejectReasonValue, type SessionRejectReasonValue, BusinessRejectReason, SessionRejectReason,
  describeTag,
} from '../dictionary.js';

export type RejectKind =
  | { readonly kind: 'session'; readonly reason: SessionRejectReasonValue }
  | { readonly kind: 'business'; readonly reason: BusinessRejectReasonValue };

export class FixProblem {
  constructor(
    readonly reject: RejectKind,
    /** RefTagID (371): the tag at fault, null when it has no valid number. */
    readonly refTagId: number | null,
    /** RefMsgType (372); empty when the message had no readable MsgType. */
    readonly refMsgType: string,
    /** RefSeqNum (45); 0 when the message had no readable MsgSeqNum. */
    readonly refSeqNum: number,
    /** Text (58). */
    readonly text: string,
  ) {}
}

const sessionKinds = new Map<number, RejectKind>();
export function sessionReject(reason: SessionRejectReasonValue): RejectKind {
  let k = sessionKinds.get(reason);
  if (k === undefined) sessionKinds.set(reason, (k = { kind: 'session', reason }));
  return k;
}

export const CONDITIONALLY_REQUIRED: RejectKind = {
  kind: 'business', reason: BusinessRejectReason.ConditionallyRequiredFieldMissing,
};

/** The Text (58) QuickFIX engines send for each SessionRejectReason, with the tag named. */
export function rejectText(reject: RejectKind, tag: number | null): string {
  const at = tag === null ? '' : `: ${describeTag(tag)}`;
  if (reject.kind === 'business') return `Conditionally required field missing${at}`;
  switch (reject.reason) {
    case SessionRejectReason.InvalidTagNumber: return `Invalid tag number${at}`;
    case SessionRejectReason.RequiredTagMissing: return `Required tag missing${at}`;
    case SessionRejectReason.TagSpecifiedWithoutValue: return `Tag specified without a value${at}`;
    case SessionRejectReason.ValueIsIncorrect: return `Value is incorrect (out of range) for this tag${at}`;
    case SessionRejectReason.IncorrectDataFormat: return `Incorrect data format for value${at}`;
    case SessionRejectReason.InvalidMsgType: return 'Invalid MsgType';
    case SessionRejectReason.TagAppearsMoreThanOnce: return `Tag appears more than once${at}`;
    case SessionRejectReason.TagSpecifiedOutOfRequiredOrder: return `Tag specified out of required order${at}`;
    case SessionRejectReason.RepeatingGroupFieldsOutOfOrder: return `Repeating group fields out of order${at}`;
    case SessionRejectReason.IncorrectNumInGroupCount: return `Incorrect NumInGroup count for repeating group${at}`;
    default: return `Session reject reason ${reject.reason}${at}`;
  }
}
