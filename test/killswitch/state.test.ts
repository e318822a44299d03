// The kill switch's transition table: trigger always ends Triggered (and halts), reset always ends
// Armed, releasing only a Triggered switch; a pair the table lacks throws IllegalTransition.
import { describe, expect, it } from 'vitest';
import { IllegalTransition } from '../../src/base/transition.js';
import { type KillSwitchState, killSwitchTransition } from '../../src/gateway/killswitch/state.js';

describe('kill switch transitions', () => {
  it('Armed -> trigger -> Triggered -> reset -> Armed', () => {
    expect(killSwitchTransition('Armed', 'trigger')).toEqual({ next: 'Triggered', effect: 'halt' });
    expect(killSwitchTransition('Triggered', 'reset')).toEqual({ next: 'Armed', effect: 'release' });
  });

  it('a repeated trigger halts again; a reset of an Armed switch does nothing', () => {
    expect(killSwitchTransition('Triggered', 'trigger')).toEqual({ next: 'Triggered', effect: 'halt' });
    expect(killSwitchTransition('Armed', 'reset')).toEqual({ next: 'Armed', effect: 'none' });
  });

  it('a state the table does not know throws IllegalTransition', () => {
    const unknown = 'Halted' as KillSwitchState;
    expect(() => killSwitchTransition(unknown, 'trigger')).toThrow(IllegalTransition);
    expect(() => killSwitchTransition(unknown, 'reset')).toThrow('kill switch: no transition from Halted on reset');
    // Inherited keys are not rows of the table.
    expect(() => killSwitchTransition('toString' as KillSwitchState, 'trigger')).toThrow(IllegalTransition);
  });
});
