// One key's statistics over time: requests, errors by name, latency p50/p90/p99, and p99 per
// endpoint, for the last hour in 10 s buckets or the last day in 1 minute buckets, with a table of
// the endpoints over the same window. Refreshed with each bucket while shown.
import { api } from './api.js';
import { drawChart } from './charts.js';
import { $, fillRows, h } from './dom.js';
import { count, ms, percent } from './format.js';

let charted = null;
let step = '10s';
let loadedAtMs = 0;
const REFRESH_MS = { '10s': 5_000, '1m': 30_000 };

const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const worst = (xs) => xs.reduce((a, b) => (b === null ? a : a === null ? b : Math.max(a, b)), null);

function endpointRow(e) {
  const requests = sum(e.requests);
  const errors = sum(e.errors);
  return h('tr', {},
    h('td', { class: 'mono' }, e.endpoint),
    h('td', { class: 'num' }, count(requests)),
    h('td', { class: 'num' }, errors === 0 ? '0' : `${count(errors)} (${percent(errors / requests)})`),
    h('td', { class: 'num' }, ms(worst(e.latency_ms.p50))),
    h('td', { class: 'num' }, ms(worst(e.latency_ms.p90))),
    h('td', { class: 'num' }, ms(worst(e.latency_ms.p99))));
}

async function load() {
  const s = await api('GET', `/keys/${encodeURIComponent(charted.id)}/series?step=${step}`);
  loadedAtMs = Date.now();
  const quiet = step === '10s' ? 'No requests in the last hour.' : 'No requests in the last day.';
  drawChart($('#chart-requests'), s.ts, [{ label: 'requests', values: s.requests, bars: true }], { unit: `per ${step}`, empty: quiet, decimals: 0 });
  const names = Object.keys(s.errors_by_name);
  drawChart($('#chart-errors'), s.ts, names.length === 0 ? [{ label: 'errors', values: s.errors, bars: true }]
    : names.map((name) => ({ label: name, values: s.errors_by_name[name], bars: names.length === 1 })), { unit: `per ${step}`, empty: 'No errors.', decimals: 0 });
  drawChart($('#chart-latency'), s.ts, [
    { label: 'p50', values: s.latency_ms.p50 },
    { label: 'p90', values: s.latency_ms.p90 },
    { label: 'p99', values: s.latency_ms.p99 },
  ], { unit: 'ms', empty: quiet });
  drawChart($('#chart-endpoints'), s.ts, s.endpoints.slice(0, 6).map((e) => ({ label: e.endpoint, values: e.latency_ms.p99 })), { unit: 'ms', empty: quiet });
  fillRows($('#endpoints-table tbody'), s.endpoints.map(endpointRow));
}

/** Opens the charts of key `k` below the key list. */
export async function showKeyCharts(k) {
  charted = k;
  $('#key-charts-title').textContent = `${k.name} · ${k.id}`;
  $('#key-charts').hidden = false;
  await load();
  $('#key-charts').scrollIntoView({ block: 'start', behavior: 'smooth' });
}

/** Called on every poll of the keys view: reloads the charts when a new bucket is due. */
export async function refreshKeyCharts() {
  if (charted === null || $('#key-charts').hidden) return;
  if (Date.now() - loadedAtMs >= REFRESH_MS[step]) await load();
}

export function wireKeyCharts() {
  $('#key-charts-close').addEventListener('click', () => { $('#key-charts').hidden = true; charted = null; });
  for (const b of document.querySelectorAll('#series-step button')) {
    b.addEventListener('click', () => {
      step = b.dataset.step;
      for (const other of document.querySelectorAll('#series-step button')) other.classList.toggle('on', other === b);
      if (charted !== null) load().catch(() => {});
    });
  }
}
