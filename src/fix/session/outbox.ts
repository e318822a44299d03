// Everything one session sends: MsgSeqNum assignment, encoding into the session's writer (messages
// of one turn accumulate and reach the socket as one write), retention of application messages
// for resends, and replaying them for a ResendRequest.
import { encodeSequenceReset } from '../codec/outbound/session.js';
import { CompIds, FixWriter, type OutboundHeader } from '../codec/writer.js';
import { ResendStore } from './resend-store.js';
import type { UnixMs } from '../../engine/types.js';

export type Encode = (w: FixWriter, h: OutboundHeader) => void;

/** What the outbox writes to: the session's connection. */
export interface Transport {
  write(bytes: Buffer): void;
  /** Ends the connection after what was written. */
  close(): void;
  readonly remoteAddress: string;
  /** The connection holds more unsent bytes than it should: conflatable output (quotes) waits. */
  readonly backlogged: boolean;
}

export class Outbox {
  readonly writer = new FixWriter();
  private compIds: CompIds;
  private nextSeq = 1;
  private readonly store = new ResendStore();

  constructor(ourCompId: string, private readonly transport: Transport) {
    // Until Logon names the client, answers go to an unknown TargetCompID (refusals only).
    this.compIds = new CompIds(ourCompId, 'UNKNOWN');
  }

  /** Our side's CompIDs once the Logon named the client. */
  address(ourCompId: string, clientCompId: string): void {
    this.compIds = new CompIds(ourCompId, clientCompId);
  }

  get lastSentSeq(): number {
    return this.nextSeq - 1;
  }

  /** Encodes one message with the next MsgSeqNum; `retain` keeps it for a ResendRequest. */
  send(nowMs: UnixMs, msgType: string, encode: Encode, retain: boolean): void {
    const h: OutboundHeader = { compIds: this.compIds, msgSeqNum: this.nextSeq++, sendingTimeMs: nowMs, origSendingTimeMs: null };
    encode(this.writer, h);
    if (retain) this.store.put(h.msgSeqNum, msgType, nowMs, this.writer.lastMessage());
  }

  /**
   * Answers a ResendRequest for [begin, end] (both already clipped to what was sent): retained
   * messages go out again with PossDupFlag=Y and their OrigSendingTime, every run of others (session
   * messages, market data, messages past retention) becomes one SequenceReset-GapFill.
   */
  resend(nowMs: UnixMs, begin: number, end: number): void {
    let gapStart = 0;
    const closeGap = (next: number): void => {
      if (gapStart === 0) return;
      const h: OutboundHeader = { compIds: this.compIds, msgSeqNum: gapStart, sendingTimeMs: nowMs, origSendingTimeMs: nowMs };
      encodeSequenceReset(this.writer, h, { gapFill: true, newSeqNo: next });
      gapStart = 0;
    };
    for (let seq = begin; seq <= end; seq++) {
      const stored = this.store.get(seq);
      if (stored === undefined) {
        if (gapStart === 0) gapStart = seq;
        continue;
      }
      closeGap(seq);
      const h: OutboundHeader = { compIds: this.compIds, msgSeqNum: seq, sendingTimeMs: nowMs, origSendingTimeMs: stored.sendingTimeMs };
      this.writer.begin(stored.msgType, h);
      this.writer.raw(stored.body);
      this.writer.finish();
    }
    closeGap(end + 1);
  }

  /** Hands everything encoded since the last flush to the transport in one write. */
  flush(): void {
    if (this.writer.pendingBytes > 0) this.transport.write(this.writer.flush());
  }
}
