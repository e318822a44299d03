// One FIX 4.4 session on one connection, as the acceptor side of the session layer: framing,
// Logon, the StandardHeader checks (SendingTime, CompIDs, PossDup), MsgSeqNum with ResendRequest
// and SequenceReset, Heartbeat/TestRequest, Logout, Reject, and the message throttle. Application
// messages go to the SessionApp the Logon produced. Never throws on input: whatever bytes arrive,
// the answer is a drop, a Reject, a Logout or a disconnect (reference §0.1, QuickFIX acceptance
// cases; the rules table is in docs/fix.md).
import { FixFramer, FrameStatus } from '../codec/framer.js';
import { type FixHeader, readHeader } from '../codec/inbound/header.js';
import {
  readHeartbeat, readLogon, readLogout, readReject, readResendRequest, readSequenceReset, readTestRequest,
  type SequenceReset,
} from '../codec/inbound/session.js';
import {
  type SessionRejectFields, encodeHeartbeat, encodeLogon, encodeLogout, encodeProblem, encodeReject, encodeResendRequest,
  encodeTestRequest,
} from '../codec/outbound/session.js';
import { FixProblem } from '../codec/problem.js';
import { FixReader } from '../codec/reader.js';
import { EncryptMethod, MsgType, Tag } from '../dictionary.js';
import { TokenBucket } from '../../base/token-bucket.js';
import { droppedOtherVersion, msgTypeIsThird } from './frames.js';
import { gapFillFault, headerFault, resetFault } from './header-rules.js';
import { InboundSequence } from './inbound-sequence.js';
import { Liveness } from './liveness.js';
import { logonProblem } from './logon-rules.js';
import { type Encode, Outbox, type Transport } from './outbox.js';
import { ADMIN_MSG_TYPES, type SessionEvent, type SessionState, nextState } from './state.js';
import type { LogonRequest, LogonVerdict, SessionApp, SessionConfig, SessionCounters, SessionLog } from './types.js';
import type { UnixMs } from '../../engine/types.js';

/** What a session needs from its surroundings (here, not in types.ts: it names the session itself). */
export interface SessionHost {
  nowMs(): UnixMs;
  readonly log: SessionLog;
  /** Account-level Logon checks (credentials, key, account, hours, one session per account). */
  logon(session: FixSession, req: LogonRequest): LogonVerdict;
  /** The session has encoded output; the host flushes it (once per turn). */
  outputPending(session: FixSession): void;
  /** Counts for the service's metrics (FixCounters); absent where nobody scrapes. */
  readonly counters?: SessionCounters;
}

export class FixSession {
  private stateValue: SessionState = 'awaitingLogon';
  private readonly framer: FixFramer;
  private readonly reader = new FixReader();
  private readonly outbox: Outbox;
  private readonly liveness: Liveness;
  private readonly inbound = new InboundSequence();
  private throttle: TokenBucket | null = null;
  private app: SessionApp | null = null;
  private clientCompId = '';
  private testRequests = 0;
  private flushRequested = false;

  constructor(private readonly config: SessionConfig, private readonly host: SessionHost, private readonly transport: Transport) {
    this.framer = new FixFramer({ maxMessageBytes: config.maxMessageBytes });
    this.outbox = new Outbox(config.ourCompId, transport);
    this.liveness = new Liveness({
      heartbeatMs: config.heartBtIntSec * 1000, logonTimeoutMs: config.logonTimeoutMs, logoutTimeoutMs: config.logoutTimeoutMs,
    }, host.nowMs());
  }

  get state(): SessionState {
    return this.stateValue;
  }

  /** The client's CompID once logged on (SenderCompID of its Logon). */
  get senderCompId(): string {
    return this.clientCompId;
  }

  get remoteAddress(): string {
    return this.transport.remoteAddress;
  }

  get backlogged(): boolean {
    return this.transport.backlogged;
  }

  /** The connection drained its backlog. */
  writable(): void {
    this.app?.onWritable();
  }

  /** Bytes from the connection. */
  receive(chunk: Uint8Array): void {
    if (this.stateValue === 'closed') return;
    this.framer.push(chunk);
    for (let status = this.framer.next(); status !== FrameStatus.NeedMore; status = this.framer.next()) {
      if (status === FrameStatus.Garbled) this.onGarbled();
      else this.onFrame(this.framer.bytes, this.framer.frameStart, this.framer.frameEnd, true);
      this.drainQueued();
      if (this.state === 'closed') return;
    }
  }

  /** Runs whatever timer is due; the connection calls it at nextDeadlineMs(). */
  onTimer(): void {
    for (let guard = 0; guard < 4 && this.stateValue !== 'closed'; guard++) {
      const now = this.host.nowMs();
      switch (this.liveness.due(this.stateValue, now)) {
        case 'none': return;
        case 'logonTimeout':
          this.host.log.info({ remote: this.remoteAddress, timeoutMs: this.config.logonTimeoutMs }, 'fix: no Logon in time, disconnecting');
          this.drop(null);
          return;
        case 'heartbeat':
          this.sendAdmin((w, h) => encodeHeartbeat(w, h, null));
          break;
        case 'testRequest':
          this.liveness.testRequestSent();
          this.sendAdmin((w, h) => encodeTestRequest(w, h, `TEST-${++this.testRequests}`));
          break;
        case 'silenceTimeout':
          this.drop(`No message received for ${(this.config.heartBtIntSec * 2.5).toFixed(1)} s (2.5 x HeartBtInt): disconnecting`);
          return;
        case 'logoutTimeout':
          this.drop(null);
          return;
      }
    }
  }

  nextDeadlineMs(): number {
    return this.liveness.nextDeadlineMs(this.stateValue);
  }

  /**
   * Sends an application message with the next MsgSeqNum; false (nothing sent) unless the session
   * is active. `retain` keeps it for a ResendRequest (market data is not replayed).
   */
  send(msgType: string, encode: Encode, retain = true): boolean {
    if (this.stateValue !== 'active') return false;
    this.emit(msgType, encode, retain);
    return true;
  }

  /** Answers an application message the application cannot take: Reject (3) or BusinessMessageReject (j). */
  reject(problem: FixProblem): void {
    if (this.stateValue !== 'active') return;
    this.emit(problem.reject.kind === 'session' ? MsgType.Reject : MsgType.BusinessMessageReject,
      (w, h) => encodeProblem(w, h, problem), problem.reject.kind === 'business');
  }

  /** Starts the Logout handshake (shutdown, or a key revoked while logged on). */
  logout(text: string): void {
    if (this.stateValue === 'active') this.logoutAndWait(text);
    else if (this.stateValue === 'awaitingLogon') this.drop(null);
  }

  /** Ends the session at once, with a last Logout saying why unless `text` is null. */
  abort(text: string | null): void {
    this.drop(text);
  }

  /** The connection went away: nothing more is sent. */
  transportClosed(): void {
    if (this.stateValue !== 'closed') this.finish('dropped');
  }

  /** Writes what this session encoded since the last flush. */
  flush(): void {
    this.flushRequested = false;
    this.outbox.flush();
  }

  // ---------------------------------------------------------------------------------------------

  private emit(msgType: string, encode: Encode, retain: boolean): void {
    const now = this.host.nowMs();
    this.outbox.send(now, msgType, encode, retain);
    this.host.counters?.message('out', msgType);
    this.sent(now);
  }

  /** Something was encoded: the heartbeat clock restarts and the host flushes at the end of the turn. */
  private sent(now: number): void {
    this.liveness.sent(now);
    if (!this.flushRequested) {
      this.flushRequested = true;
      this.host.outputPending(this);
    }
  }

  private sendAdmin(encode: Encode): void {
    this.emit('', encode, false);
  }

  private transition(event: SessionEvent): void {
    this.stateValue = nextState(this.stateValue, event);
  }

  /** Sends Logout saying why (unless text is null), then disconnects without waiting. */
  private drop(text: string | null): void {
    if (this.stateValue === 'closed') return;
    if (text !== null) {
      this.sendAdmin((w, h) => encodeLogout(w, h, text));
      this.host.log.info({ remote: this.remoteAddress, sender: this.clientCompId, reason: text }, 'fix: logout and disconnect');
    }
    this.flush();
    this.finish('dropped');
  }

  private finish(event: SessionEvent): void {
    this.transition(event);
    this.transport.close();
    const app = this.app;
    this.app = null;
    if (app !== null) this.host.counters?.ended();
    app?.onEnd(event === 'logoutReceived' ? 'logout' : 'dropped');
  }

  private logoutAndWait(text: string): void {
    this.sendAdmin((w, h) => encodeLogout(w, h, text));
    this.liveness.logoutSent(this.host.nowMs());
    this.transition('logoutSent');
    this.host.log.info({ sender: this.clientCompId, reason: text }, 'fix: logout sent');
  }

  private sessionReject(fields: SessionRejectFields): void {
    this.sendAdmin((w, h) => encodeReject(w, h, fields));
  }

  private onGarbled(): void {
    if (droppedOtherVersion(this.framer)) {
      this.drop('Incorrect BeginString: this gateway speaks FIX.4.4 only');
      return;
    }
    this.host.log.info({ remote: this.remoteAddress, reason: this.framer.garbleReason, bytes: this.framer.droppedBytes }, 'fix: garbled frame dropped');
  }

  /** `fresh`: just off the wire (not a queued frame coming back in sequence), so counted. */
  private onFrame(bytes: Buffer, start: number, end: number, fresh: boolean): void {
    if (!msgTypeIsThird(bytes, start, end)) {
      this.host.log.info({ remote: this.remoteAddress }, 'fix: frame without MsgType in third place dropped');
      return;
    }
    const r = this.reader;
    r.parse(bytes, start, end);
    if (fresh) this.host.counters?.message('in', r.msgType);
    const now = this.host.nowMs();
    this.liveness.received(now);
    if (this.stateValue === 'awaitingLogon') {
      this.onFirstMessage(r, now);
      return;
    }
    const h = readHeader(r);
    if (h instanceof FixProblem) {
      this.onBadHeader(h, r, bytes, start, end);
      return;
    }
    if (h.msgType === MsgType.SequenceReset) {
      const reset = readSequenceReset(r);
      if (!(reset instanceof FixProblem) && !reset.gapFill) {
        // Reset mode ignores MsgSeqNum altogether (FIX 4.4; QuickFIX cases 11a-11c).
        if (this.headerAcceptable(h, now)) this.onReset(reset, h.msgSeqNum);
        return;
      }
    }
    if (!this.headerAcceptable(h, now)) return;
    switch (this.inbound.classify(h.msgSeqNum)) {
      case 'tooLow': this.onTooLow(h); return;
      case 'tooHigh': this.onTooHigh(h, r, bytes, start, end); return;
      case 'expected': this.process(h, r, now); return;
    }
  }

  private drainQueued(): void {
    for (let next = this.inbound.takeNext(); next !== undefined && this.stateValue !== 'closed'; next = this.inbound.takeNext()) {
      if (next.frame === null) this.inbound.consumed();
      else this.onFrame(next.frame, 0, next.frame.length, false);
    }
  }

  private onFirstMessage(r: FixReader, now: number): void {
    const h = readHeader(r);
    const msgType = h instanceof FixProblem ? r.msgType : h.msgType;
    // Even a refusal goes to the CompID the client named.
    const sender = h instanceof FixProblem ? r.str(Tag.SenderCompID) : h.senderCompId;
    if (sender !== null && sender !== '') this.outbox.address(this.config.ourCompId, sender);
    if (msgType !== MsgType.Logon) {
      this.drop(`First message must be a Logon (35=A), received 35=${msgType}`);
      return;
    }
    if (h instanceof FixProblem) {
      this.drop(`Invalid Logon message: ${h.text}`);
      return;
    }
    const logon = readLogon(r);
    if (logon instanceof FixProblem) {
      this.drop(`Invalid Logon message: ${logon.text}`);
      return;
    }
    const refusal = logonProblem(h, logon, this.config, now);
    if (refusal !== null) {
      this.drop(refusal);
      return;
    }
    const verdict = this.host.logon(this, { header: h, logon, remoteAddress: this.remoteAddress, nowMs: now });
    if (!verdict.ok) {
      this.drop(verdict.text);
      return;
    }
    this.app = verdict.app;
    this.clientCompId = h.senderCompId;
    this.throttle = new TokenBucket(this.config.throttle.ratePerSec, this.config.throttle.burst, now);
    this.transition('logonAccepted');
    this.host.counters?.loggedOn();
    this.sendAdmin((w, hdr) => encodeLogon(w, hdr, { encryptMethod: EncryptMethod.None, heartBtIntSec: this.config.heartBtIntSec, resetSeqNumFlag: true }));
    // ResetSeqNumFlag=Y: the client's numbers restart at 1; a later Logon number leaves a gap to fill.
    if (h.msgSeqNum === 1) this.inbound.consumed();
    else if (this.inbound.early(h.msgSeqNum, null)) this.requestResend();
    this.host.log.info({ sender: h.senderCompId, remote: this.remoteAddress }, 'fix: logged on');
  }

  private requestResend(): void {
    const begin = this.inbound.expected;
    this.sendAdmin((w, h) => encodeResendRequest(w, h, begin, 0));
  }

  /** Answers a header fault (Reject, and Logout where the session cannot go on); false = do not process. */
  private headerAcceptable(h: FixHeader, now: number): boolean {
    const fault = headerFault(h, this.clientCompId, this.config, now);
    if (fault === null) return true;
    this.sessionReject(fault.reject);
    if (fault.logout !== null) this.logoutAndWait(fault.logout);
    // A rejected in-sequence message consumes its number; a too-low one never did (case 2g).
    else if (this.inbound.classify(h.msgSeqNum) === 'expected') this.inbound.consumed();
    return false;
  }

  private onBadHeader(problem: FixProblem, r: FixReader, bytes: Buffer, start: number, end: number): void {
    if (problem.refTagId === Tag.MsgSeqNum) {
      const seq = r.int(Tag.MsgSeqNum);
      if (seq !== null && r.msgType === MsgType.SequenceReset) {
        // A SequenceReset-Reset may carry MsgSeqNum 0: it is ignored in reset mode (case 11c).
        const reset = readSequenceReset(r);
        if (!(reset instanceof FixProblem) && !reset.gapFill) {
          this.onReset(reset, seq);
          return;
        }
      }
      this.drop(seq === null
        ? 'Received message without a valid MsgSeqNum (34)'
        : `MsgSeqNum too low, expecting ${this.inbound.expected} but received ${seq}`);
      return;
    }
    const seq = r.msgSeqNum;
    switch (this.inbound.classify(seq)) {
      case 'expected':
        this.reject(problem);
        this.inbound.consumed();
        return;
      case 'tooHigh':
        if (this.inbound.early(seq, Buffer.from(bytes.subarray(start, end)))) this.requestResend();
        return;
      case 'tooLow':
        if (r.bool(Tag.PossDupFlag) !== true) this.drop(`MsgSeqNum too low, expecting ${this.inbound.expected} but received ${seq}`);
        return;
    }
  }

  private onTooLow(h: FixHeader): void {
    // A PossDup resend of something already received is ignored (case 2e); its OrigSendingTime
    // was checked in headerAcceptable.
    if (h.possDup) return;
    this.drop(`MsgSeqNum too low, expecting ${this.inbound.expected} but received ${h.msgSeqNum}`);
  }

  private onTooHigh(h: FixHeader, r: FixReader, bytes: Buffer, start: number, end: number): void {
    if (h.msgType === MsgType.ResendRequest) {
      // Answered at once, or both sides would wait for each other (case 20); its number holds its place.
      this.answerResendRequest(r, h);
      if (this.inbound.early(h.msgSeqNum, null)) this.requestResend();
      return;
    }
    if (h.msgType === MsgType.Logout) {
      // A client that wants to leave is let go without first filling the gap.
      this.onLogout(r);
      return;
    }
    if (this.inbound.early(h.msgSeqNum, Buffer.from(bytes.subarray(start, end)))) this.requestResend();
  }

  private process(h: FixHeader, r: FixReader, now: number): void {
    this.inbound.consumed();
    if (this.stateValue === 'loggingOut' && h.msgType !== MsgType.Logout) return;
    switch (h.msgType) {
      case MsgType.Heartbeat: {
        const m = readHeartbeat(r);
        if (m instanceof FixProblem) this.reject(m);
        return;
      }
      case MsgType.TestRequest: {
        const m = readTestRequest(r);
        if (m instanceof FixProblem) this.reject(m);
        else this.sendAdmin((w, hdr) => encodeHeartbeat(w, hdr, m.testReqId));
        return;
      }
      case MsgType.ResendRequest:
        this.answerResendRequest(r, h);
        return;
      case MsgType.Reject: {
        const m = readReject(r);
        this.host.log.warn({ sender: this.clientCompId, reject: m instanceof FixProblem ? m.text : m }, 'fix: client rejected one of our messages');
        return;
      }
      case MsgType.SequenceReset: {
        const m = readSequenceReset(r);
        if (m instanceof FixProblem) this.reject(m);
        else this.onGapFill(m, h.msgSeqNum);
        return;
      }
      case MsgType.Logout:
        this.onLogout(r);
        return;
      case MsgType.Logon:
        this.drop('Logon received on a session that is already logged on');
        return;
      default:
        this.onApplication(h, r, now);
    }
  }

  private onApplication(h: FixHeader, r: FixReader, now: number): void {
    const app = this.app;
    if (app === null || ADMIN_MSG_TYPES.has(h.msgType)) return;
    const throttled = this.throttle !== null && !this.throttle.take(now);
    app.onMessage(h.msgType, r, h, throttled);
  }

  private answerResendRequest(r: FixReader, h: FixHeader): void {
    const m = readResendRequest(r);
    if (m instanceof FixProblem) {
      this.reject(m);
      return;
    }
    const last = this.outbox.lastSentSeq;
    const end = m.endSeqNo === 0 || m.endSeqNo > last ? last : m.endSeqNo;
    if (m.beginSeqNo > end) {
      this.host.log.info({ sender: this.clientCompId, begin: m.beginSeqNo, end: m.endSeqNo, last, seq: h.msgSeqNum }, 'fix: ResendRequest beyond what was sent, nothing to resend');
      return;
    }
    const now = this.host.nowMs();
    this.outbox.resend(now, m.beginSeqNo, end);
    this.sent(now);
  }

  private onGapFill(m: SequenceReset, seq: number): void {
    const fault = gapFillFault(m, seq);
    if (fault === null) this.inbound.advanceTo(m.newSeqNo);
    else this.sessionReject(fault);
  }

  private onReset(m: SequenceReset, seq: number): void {
    if (this.stateValue !== 'active') return;
    const fault = resetFault(m, this.inbound.expected, seq);
    if (fault === null) this.inbound.advanceTo(m.newSeqNo);
    else this.sessionReject(fault);
  }

  private onLogout(r: FixReader): void {
    const m = readLogout(r);
    const text = m instanceof FixProblem ? null : m.text;
    this.host.log.info({ sender: this.clientCompId, text }, 'fix: client logout');
    if (this.stateValue === 'active') this.sendAdmin((w, h) => encodeLogout(w, h, null));
    this.flush();
    this.finish('logoutReceived');
  }
}
