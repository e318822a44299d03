// The client's MsgSeqNum as FIX 4.4 requires it to be checked. A number above the expected one
// means messages were lost: one ResendRequest (BeginSeqNo = expected, EndSeqNo = 0, "everything")
// goes out and the early message waits in a bounded queue until the gap is filled, as QuickFIX
// queues it (acceptance case 2b); no second ResendRequest is sent while one is outstanding.
// Queued messages are copies (the framer's buffer moves); beyond the bound they are dropped, which
// is safe because the ResendRequest asked for everything from the gap on.

export type SeqVerdict = 'expected' | 'tooHigh' | 'tooLow';

/** How many early messages wait at most for a gap to be filled. */
export const MAX_QUEUED_MESSAGES = 1000;

export class InboundSequence {
  /** The MsgSeqNum the next in-sequence message carries. */
  expected = 1;
  /** Highest number seen above `expected` since the outstanding ResendRequest; pending while >= expected. */
  private resendUpTo = 0;
  /** seq → a copy of the early frame, or null for one already handled (a Logon or ResendRequest). */
  private readonly queue = new Map<number, Buffer | null>();

  classify(seq: number): SeqVerdict {
    if (seq === this.expected) return 'expected';
    return seq > this.expected ? 'tooHigh' : 'tooLow';
  }

  /**
   * Records an early message; true when a ResendRequest must go out now (none outstanding).
   * `frame` null: the message was handled already and only holds its number's place.
   */
  early(seq: number, frame: Buffer | null): boolean {
    const mustRequest = this.resendUpTo < this.expected;
    if (seq > this.resendUpTo) this.resendUpTo = seq;
    if (this.queue.size < MAX_QUEUED_MESSAGES && !this.queue.has(seq)) this.queue.set(seq, frame);
    return mustRequest;
  }

  /** The in-sequence message was consumed (processed or rejected). */
  consumed(): void {
    this.advanceTo(this.expected + 1);
  }

  /** SequenceReset: the next expected number becomes `newSeqNo` (never lowered by the caller). */
  advanceTo(newSeqNo: number): void {
    this.expected = newSeqNo;
    if (this.queue.size === 0) return;
    for (const seq of this.queue.keys()) if (seq < newSeqNo) this.queue.delete(seq);
  }

  /** The queued message that is now in sequence, if any: a frame, or null for a handled one. */
  takeNext(): { readonly frame: Buffer | null } | undefined {
    if (!this.queue.has(this.expected)) return undefined;
    const frame = this.queue.get(this.expected) ?? null;
    this.queue.delete(this.expected);
    return { frame };
  }
}
