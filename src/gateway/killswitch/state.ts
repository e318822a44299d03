// The user kill switch as a state machine (spec 7, DECISIONS "Kill switch"):
// Armed -> (trigger) -> Triggered -> (reset with a fresh TOTP) -> Armed. Each transition names the
// effect the orchestrator carries out across the user's accounts. Triggering a Triggered switch
// halts again (the shards close whatever is still open, e.g. a position whose close failed last
// time); resetting an Armed one changes nothing.
export type KillSwitchState = 'Armed' | 'Triggered';
export type KillSwitchAction = 'trigger' | 'reset';
/** `halt`: journal, pause the webhooks, halt every account. `release`: un-halt every account. */
export type KillSwitchEffect = 'halt' | 'release' | 'none';

export interface Transition { readonly next: KillSwitchState; readonly effect: KillSwitchEffect }

export const TRANSITIONS: Readonly<Record<KillSwitchState, Readonly<Record<KillSwitchAction, Transition>>>> = {
  Armed: {
    trigger: { next: 'Triggered', effect: 'halt' },
    reset: { next: 'Armed', effect: 'none' },
  },
  Triggered: {
    trigger: { next: 'Triggered', effect: 'halt' },
    reset: { next: 'Armed', effect: 'release' },
  },
};

/** Who asked: the operator API, the user through the console, or start-up reconciliation. */
export type KillSwitchActor = 'operator' | 'user' | 'startup';
