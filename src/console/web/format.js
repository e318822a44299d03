// How the page writes times, money and rates.
const UNITS = [['day', 86400], ['hour', 3600], ['minute', 60], ['second', 1]];

export function relative(iso, nowMs = Date.now()) {
  if (!iso) return 'never';
  const seconds = Math.round((Date.parse(iso) - nowMs) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 5) return 'just now';
  const fmt = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  for (const [unit, size] of UNITS) if (abs >= size || unit === 'second') return fmt.format(Math.trunc(seconds / size), unit);
  return iso;
}

export const dateTime = (iso) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }) : '—');
export const date = (iso) => (iso ? new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' }) : 'none');
export const percent = (x) => `${(x * 100).toFixed(x > 0 && x < 0.01 ? 2 : 1)}%`;
export const ms = (x) => (x === null || x === undefined ? '—' : `${x < 10 ? x.toFixed(2) : x.toFixed(1)} ms`);
export const amount = (x, currency) => `${Number(x).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}${currency ? ` ${currency}` : ''}`;
export const count = (n) => Number(n).toLocaleString('en-US');
