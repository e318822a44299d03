// Outbound application messages of the current connection, kept so a ResendRequest gets the real
// ExecutionReports back (PossDupFlag=Y, OrigSendingTime = the first SendingTime) rather than a gap
// fill. Sequence numbers restart at 1 on every Logon (ResetSeqNumFlag=Y), so nothing outlives the
// connection. Kept: the body after the header (35 49 56 34 52 are rewritten on resend). Bounded:
// the oldest messages leave first, and a resend asking for them gets a SequenceReset-GapFill.
import * as ascii from '../codec/ascii.js';

export interface StoredMessage {
  readonly msgType: string;
  readonly sendingTimeMs: number;
  /** The fields after SendingTime, each ending in SOH, CheckSum excluded. */
  readonly body: Buffer;
}

/** How many application messages one session keeps for resending. */
export const RESEND_STORE_MESSAGES = 10_000;

const SENDING_TIME_FIELD = Buffer.from('\x0152=', 'latin1');
const CHECKSUM_FIELD = Buffer.from('\x0110=', 'latin1');

export class ResendStore {
  private readonly messages = new Map<number, StoredMessage>();
  private oldest = 1;

  constructor(private readonly capacity = RESEND_STORE_MESSAGES) {}

  /** `message` is a complete frame as the writer produced it (no PossDup fields). */
  put(seq: number, msgType: string, sendingTimeMs: number, message: Uint8Array): void {
    const bytes = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
    const timeField = bytes.indexOf(SENDING_TIME_FIELD);
    const bodyStart = bytes.indexOf(ascii.SOH, timeField + SENDING_TIME_FIELD.length) + 1;
    const bodyEnd = bytes.lastIndexOf(CHECKSUM_FIELD) + 1;
    this.messages.set(seq, { msgType, sendingTimeMs, body: Buffer.from(bytes.subarray(bodyStart, bodyEnd)) });
    while (this.messages.size > this.capacity) {
      this.messages.delete(this.oldest);
      this.oldest++;
    }
  }

  get(seq: number): StoredMessage | undefined {
    return this.messages.get(seq);
  }
}
