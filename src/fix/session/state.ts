// The life of one FIX session as a transition table. A connection starts awaiting Logon; only an
// accepted Logon makes it active. Two ways out: the Logout handshake (whoever sends Logout first
// waits for the other's; the gateway answers a client's Logout at once), or a drop without
// handshake (refused Logon, MsgSeqNum too low, timeouts, the socket closing), where the gateway
// may still send a last Logout saying why before it disconnects. The table is the only way the state
// changes; an event it does not allow in a state throws.
import { IllegalTransition } from '../../base/transition.js';

export type SessionState = 'awaitingLogon' | 'active' | 'loggingOut' | 'closed';

export type SessionEvent =
  /** Logon passed every check and was answered with our Logon. */
  | 'logonAccepted'
  /** We sent Logout and now wait for the client's (bad CompID, SendingTime, shutdown); again while waiting, the wait goes on. */
  | 'logoutSent'
  /** The client's Logout: answered when we had not sent ours, and the connection ends. */
  | 'logoutReceived'
  /** No handshake: refusal, fatal sequence error, a timeout or the transport going away. */
  | 'dropped';

const TRANSITIONS: Readonly<Record<SessionState, Readonly<Partial<Record<SessionEvent, SessionState>>>>> = {
  awaitingLogon: { logonAccepted: 'active', logoutReceived: 'closed', dropped: 'closed' },
  active: { logoutSent: 'loggingOut', logoutReceived: 'closed', dropped: 'closed' },
  loggingOut: { logoutSent: 'loggingOut', logoutReceived: 'closed', dropped: 'closed' },
  closed: {},
};

/** The next state; throws IllegalTransition when the event is not allowed in `state`. */
export function nextState(state: SessionState, event: SessionEvent): SessionState {
  const next = TRANSITIONS[state][event];
  if (next === undefined) throw new IllegalTransition('FIX session', state, event);
  return next;
}

/** Session-level MsgTypes (FIX44 msgcat admin); every other MsgType is an application message. */
export const ADMIN_MSG_TYPES: ReadonlySet<string> = new Set(['0', '1', '2', '3', '4', '5', 'A']);
