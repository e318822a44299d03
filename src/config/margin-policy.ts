// Config `margin` as the engine's MarginPolicy (snake_case keys at the edge, engine names inside).
import type { MarginLevels, MarginPolicy } from '../engine/types.js';
import type { MarginConfig, MarginLevelsConfig } from './types.js';

const levelsOf = (c: MarginLevelsConfig): MarginLevels => ({ marginCallPercent: c.margin_call_percent, stopOutPercent: c.stop_out_percent });

export function marginPolicyOf(config: MarginConfig): MarginPolicy {
  return {
    defaults: levelsOf(config),
    groups: Object.entries(config.groups).map(([group, levels]) => ({ group, ...levelsOf(levels) })),
  };
}
