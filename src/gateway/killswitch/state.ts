// The user kill switch as a state machine (spec 7, DECISIONS "Kill switch"):
// Armed -> (trigger) -> Triggered -> (reset with a fresh TOTP) -> Armed. Each transition names the
// effect the orchestrator carries out across the user's accounts. Triggering a Triggered switch
// halts again (the shards close whatever is still open, e.g. a position whose close failed last
// time); resetting an Armed one changes nothing. The table is the only way the state changes and its
// effect is what KillSwitches carries out; a state/action pair it lacks throws IllegalTransition.
import { IllegalTransition } from '../../base/transition.js';

export type KillSwitchState = 'Armed' | 'Triggered';
export type KillSwitchAction = 'trigger' | 'reset';
/** `halt`: journal, pause the webhooks, halt every account. `release`: un-halt every account. */
export type KillSwitchEffect = 'halt' | 'release' | 'none';

export interface Transition { readonly next: KillSwitchState; readonly effect: KillSwitchEffect }

const TRANSITIONS: Readonly<Record<KillSwitchState, Readonly<Partial<Record<KillSwitchAction, Transition>>>>> = {
  Armed: {
    trigger: { next: 'Triggered', effect: 'halt' },
    reset: { next: 'Armed', effect: 'none' },
  },
  Triggered: {
    trigger: { next: 'Triggered', effect: 'halt' },
    reset: { next: 'Armed', effect: 'release' },
  },
};

/**
 * The next state and the effect to carry out; throws IllegalTransition for a pair the table lacks
 * (today none between known states: a state read back from the store that this build does not know).
 */
export function killSwitchTransition(state: KillSwitchState, action: KillSwitchAction): Transition {
  const row: Readonly<Partial<Record<KillSwitchAction, Transition>>> | undefined = Object.hasOwn(TRANSITIONS, state) ? TRANSITIONS[state] : undefined;
  const transition = row?.[action];
  if (transition === undefined) throw new IllegalTransition('kill switch', state, action);
  return transition;
}

/** Who asked: the operator API, the user through the console, or start-up reconciliation. */
export type KillSwitchActor = 'operator' | 'user' | 'startup';
