// A state machine asked for a transition its table does not have. Tables are the only way state
// changes (src/fix/session/state.ts, src/gateway/killswitch/state.ts), so this is a bug of the
// caller, never a client's doing: it throws, in tests and in production alike, and the caller's
// error boundary (a FIX connection's turn, a console route) fails that one call, never the thread.
export class IllegalTransition extends Error {
  constructor(machine: string, state: string, event: string) {
    super(`${machine}: no transition from ${state} on ${event}`);
    this.name = 'IllegalTransition';
  }
}
