// The kill switch's transition table: trigger always ends Triggered (and halts), reset always ends
// Armed, releasing only a Triggered switch.
import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../../src/gateway/killswitch/state.js';

describe('kill switch transitions', () => {
  it('Armed -> trigger -> Triggered -> reset -> Armed', () => {
    expect(TRANSITIONS.Armed.trigger).toEqual({ next: 'Triggered', effect: 'halt' });
    expect(TRANSITIONS.Triggered.reset).toEqual({ next: 'Armed', effect: 'release' });
  });

  it('a repeated trigger halts again; a reset of an Armed switch does nothing', () => {
    expect(TRANSITIONS.Triggered.trigger).toEqual({ next: 'Triggered', effect: 'halt' });
    expect(TRANSITIONS.Armed.reset).toEqual({ next: 'Armed', effect: 'none' });
  });
});
