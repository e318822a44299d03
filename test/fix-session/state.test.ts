// The FIX session's transition table is the only way its state changes: every allowed event moves
// the state the table says, and an event the table does not allow throws IllegalTransition.
import { describe, expect, it } from 'vitest';
import { IllegalTransition } from '../../src/base/transition.js';
import { type SessionEvent, type SessionState, nextState } from '../../src/fix/session/state.js';

describe('FIX session transitions', () => {
  it('Logon, then either handshake or drop, ends closed', () => {
    expect(nextState('awaitingLogon', 'logonAccepted')).toBe('active');
    expect(nextState('active', 'logoutSent')).toBe('loggingOut');
    expect(nextState('loggingOut', 'logoutSent')).toBe('loggingOut');
    expect(nextState('loggingOut', 'logoutReceived')).toBe('closed');
    for (const state of ['awaitingLogon', 'active', 'loggingOut'] as const) {
      expect(nextState(state, 'dropped')).toBe('closed');
      expect(nextState(state, 'logoutReceived')).toBe('closed');
    }
  });

  it.each<[SessionState, SessionEvent]>([
    ['awaitingLogon', 'logoutSent'],
    ['active', 'logonAccepted'],
    ['loggingOut', 'logonAccepted'],
    ['closed', 'logonAccepted'],
    ['closed', 'logoutSent'],
    ['closed', 'logoutReceived'],
    ['closed', 'dropped'],
  ])('%s on %s throws', (state, event) => {
    expect(() => nextState(state, event)).toThrow(IllegalTransition);
    expect(() => nextState(state, event)).toThrow(`FIX session: no transition from ${state} on ${event}`);
  });
});
