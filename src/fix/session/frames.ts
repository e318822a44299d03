// Two judgements on frames before any field is read: a framed message whose third field is not
// MsgType is garbled (QuickFIX case 2t ignores it), and a garbled "frame" that is a whole FIX
// message of another version is the wrong protocol, answered with Logout "Incorrect BeginString"
// (cases 1d, 2i), not silently dropped like garbage.
import * as ascii from '../codec/ascii.js';
import { type FixFramer, GarbleReason } from '../codec/framer.js';

const BEGIN_STRING_BYTES = ascii.BEGIN_STRING_FIELD.length;
const MSG_TYPE_PREFIX = [0x33, 0x35, ascii.EQUALS]; // "35="
/** "8=FIX.4.2<SOH>9=", "8=FIXT.1.1<SOH>9=": a FIX frame of another version. */
const OTHER_VERSION = /^8=FIXT?\.\d\.\d\x019=\d/;
const OTHER_VERSION_PROBE_BYTES = 16;

/** bytes[start, end) is a frame as FixFramer hands it out (8 and 9 checked already). */
export function msgTypeIsThird(bytes: Uint8Array, start: number, end: number): boolean {
  let p = start + BEGIN_STRING_BYTES;
  while (p < end && bytes[p] !== ascii.SOH) p++;
  return p + 3 < end && bytes[p + 1] === MSG_TYPE_PREFIX[0] && bytes[p + 2] === MSG_TYPE_PREFIX[1] && bytes[p + 3] === MSG_TYPE_PREFIX[2];
}

/** Whether the framer's last Garbled dropped a FIX message of another version. */
export function droppedOtherVersion(f: FixFramer): boolean {
  if (f.garbleReason !== GarbleReason.BeginString) return false;
  return OTHER_VERSION.test(f.bytes.toString('latin1', f.droppedStart, f.droppedStart + Math.min(f.droppedBytes, OTHER_VERSION_PROBE_BYTES)));
}
