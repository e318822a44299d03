// Webhook fan-out sizing (DECISIONS "Signal webhooks"): each target account turns the signal into
// its own volume. Sizes are computed exactly in 1/10000 lot, then rounded DOWN to 0.01 lot; a size
// below 0.01 lot is refused (never rounded up) and a size above the symbol's maximum is capped.
import { decimalRatio, divFloor, mulExact, type Ratio } from './exact.js';
import { formatMoney } from './format.js';
import type { Instrument } from './instruments.js';
import { badRequest, invalidOrder } from './rejects.js';
import type { Centilots, Cents, Reject, Sizing, Ticks } from './types.js';

/** Ten-thousandths of a lot per centilot. */
const FINE_PER_CENTILOT = 100;

export interface SizingInput {
  readonly rule: Sizing;
  readonly signalVolume: Centilots | null;
  readonly sym: Instrument;
  /** Fill price the risk is measured from. */
  readonly entry: Ticks;
  readonly sl: Ticks | null;
  readonly tp: Ticks | null;
  readonly accountCurrency: string;
  /** Only read by risk_percent. */
  readonly equity: () => Cents;
  /** Quote currency → account currency; null when there is no rate. */
  readonly rate: Ratio | null;
}

function formatFineLots(fine: number): string {
  const sign = fine < 0 ? '-' : '';
  const digits = String(Math.abs(fine)).padStart(5, '0');
  return `${sign}${digits.slice(0, -4)}.${digits.slice(-4)} lots`;
}

/** The size in 1/10000 lot, or why it cannot be computed. */
function fineSize(input: SizingInput): number | Reject {
  const { rule } = input;
  switch (rule.type) {
    case 'fixed':
      return rule.lots * FINE_PER_CENTILOT;
    case 'multiplier': {
      if (input.signalVolume === null) return badRequest('volume', 'multiplier sizing needs the signal volume');
      const factor = decimalRatio(rule.factor);
      if (factor === null) return badRequest('sizing', 'multiplier factor must be a positive decimal');
      return divFloor(mulExact(mulExact(input.signalVolume, FINE_PER_CENTILOT), factor.num), factor.den);
    }
    case 'risk_percent': {
      if (input.sl === null) return badRequest('sl', 'risk_percent sizing needs sl');
      if (input.tp === null) return badRequest('tp', 'risk_percent sizing needs tp');
      const percent = decimalRatio(rule.percent);
      if (percent === null) return badRequest('sizing', 'risk_percent must be a positive decimal');
      if (input.rate === null) return invalidOrder('symbol', `no conversion rate from ${input.sym.spec.quoteCurrency} to ${input.accountCurrency}`);
      const distance = Math.abs(input.entry - input.sl);
      if (distance === 0) return invalidOrder('sl', 'sl must differ from the entry price');
      // lots = equity × percent/100 ÷ (distance / 10^digits × contractSize × rate), all in cents, so
      // fine = equity × percent × 10^digits / (distance × contractSize × rate) after the 100s cancel.
      const num = mulExact(mulExact(mulExact(input.equity(), percent.num), input.sym.scale), input.rate.den);
      const den = mulExact(mulExact(mulExact(percent.den, distance), input.sym.spec.contractSize), input.rate.num);
      return divFloor(num, den);
    }
  }
}

/** The order volume a sizing rule gives this account, capped at the symbol's maximum. */
export function sizedVolume(input: SizingInput): Centilots | Reject {
  const fine = fineSize(input);
  if (typeof fine !== 'number') return fine;
  const volume = divFloor(fine, FINE_PER_CENTILOT);
  if (volume < 1) {
    const equityNote = input.rule.type === 'risk_percent' ? ` (equity ${formatMoney(input.equity(), input.accountCurrency)})` : '';
    return invalidOrder('volume', `computed size ${formatFineLots(fine)}${equityNote} is below the minimum 0.01 lots`);
  }
  return Math.min(volume, input.sym.spec.maxVolume);
}
