// Session timing (DECISIONS "FIX 4.4", reference §0.3): no Logon within the logon timeout drops the
// connection; once active, a Heartbeat goes out after HeartBtInt without sending, a TestRequest
// after 1.5 × HeartBtInt without receiving, and Logout + disconnect after 2.5 ×; our own Logout
// waits a bounded time for the client's. Pure: time comes in as Unix ms, so the conformance tests
// drive 75 s of silence with an injected clock instead of waiting for it.
import type { SessionState } from './state.js';
import type { UnixMs } from '../../engine/types.js';

export type TimerAction = 'none' | 'logonTimeout' | 'heartbeat' | 'testRequest' | 'silenceTimeout' | 'logoutTimeout';

export interface LivenessConfig {
  readonly heartbeatMs: number;
  readonly logonTimeoutMs: number;
  readonly logoutTimeoutMs: number;
}

/** Multipliers of HeartBtInt, in tenths so the deadlines stay integers. */
const TEST_REQUEST_TENTHS = 15;
const SILENCE_TIMEOUT_TENTHS = 25;

export class Liveness {
  private lastReceivedMs: number;
  private lastSentMs: number;
  private testRequestPending = false;
  private readonly logonDeadlineMs: number;
  private logoutDeadlineMs = Number.POSITIVE_INFINITY;

  constructor(private readonly config: LivenessConfig, connectedMs: number) {
    this.lastReceivedMs = connectedMs;
    this.lastSentMs = connectedMs;
    this.logonDeadlineMs = connectedMs + config.logonTimeoutMs;
  }

  /** A valid message arrived (garbled frames do not count). */
  received(nowMs: UnixMs): void {
    this.lastReceivedMs = nowMs;
    this.testRequestPending = false;
  }

  sent(nowMs: UnixMs): void {
    this.lastSentMs = nowMs;
  }

  testRequestSent(): void {
    this.testRequestPending = true;
  }

  logoutSent(nowMs: UnixMs): void {
    this.logoutDeadlineMs = nowMs + this.config.logoutTimeoutMs;
  }

  due(state: SessionState, nowMs: UnixMs): TimerAction {
    switch (state) {
      case 'awaitingLogon': return nowMs >= this.logonDeadlineMs ? 'logonTimeout' : 'none';
      case 'loggingOut': return nowMs >= this.logoutDeadlineMs ? 'logoutTimeout' : 'none';
      case 'closed': return 'none';
      case 'active': {
        const silentMs = nowMs - this.lastReceivedMs;
        if (silentMs * 10 >= this.config.heartbeatMs * SILENCE_TIMEOUT_TENTHS) return 'silenceTimeout';
        if (!this.testRequestPending && silentMs * 10 >= this.config.heartbeatMs * TEST_REQUEST_TENTHS) return 'testRequest';
        return nowMs - this.lastSentMs >= this.config.heartbeatMs ? 'heartbeat' : 'none';
      }
    }
  }

  /** When due() may next return something other than 'none' (Infinity when closed). */
  nextDeadlineMs(state: SessionState): number {
    switch (state) {
      case 'awaitingLogon': return this.logonDeadlineMs;
      case 'loggingOut': return this.logoutDeadlineMs;
      case 'closed': return Number.POSITIVE_INFINITY;
      case 'active': {
        const tenths = this.testRequestPending ? SILENCE_TIMEOUT_TENTHS : TEST_REQUEST_TENTHS;
        const receiveDeadline = this.lastReceivedMs + Math.ceil((this.config.heartbeatMs * tenths) / 10);
        return Math.min(receiveDeadline, this.lastSentMs + this.config.heartbeatMs);
      }
    }
  }
}
