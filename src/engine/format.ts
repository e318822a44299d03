// Human-readable quantities for reject messages: clients read lots and prices, not centilots and ticks.
import type { Centilots, Cents, Ticks } from './types.js';

function fixed(value: number, digits: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = String(Math.abs(value));
  if (digits === 0) return sign + abs;
  const padded = abs.padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

export function formatLots(volume: Centilots): string {
  return `${fixed(volume, 2)} lots`;
}

export function formatPrice(price: Ticks, digits: number): string {
  return fixed(price, digits);
}

export function formatMoney(amount: Cents, currency: string): string {
  return `${fixed(amount, 2)} ${currency}`;
}
