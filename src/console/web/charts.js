// Time-series charts with uPlot (served as its own ES module, no build step). A chart is created
// once per element and fed new data on every poll; it follows its element's width, so it fits a
// phone as well as a wide screen. Times arrive as Unix ms and are drawn in local time.
import uPlot from '/console/assets/uPlot.esm.js';

const PALETTE = ['#0369a1', '#b45309', '#b91c1c', '#15803d', '#7c3aed', '#0f766e', '#be185d', '#4d7c0f'];
const HEIGHT = 190;
const charts = new WeakMap();

const widthOf = (el) => Math.max(260, Math.floor(el.clientWidth || el.parentElement.clientWidth || 600));

/**
 * Draws `series` ([{label, values, color?, bars?}]) over `ts` (Unix ms) into `el`, replacing what
 * it showed. `unit` labels the y axis; `empty` is shown instead when there is nothing to draw.
 */
export function drawChart(el, ts, series, { unit = '', empty = 'No data in this range yet.', decimals = 2 } = {}) {
  const hasData = series.some((s) => s.values.some((v) => v !== null && v !== 0));
  el.dataset.points = String(ts.length);
  el.dataset.hasData = String(hasData);
  const key = series.map((s) => s.label).join('|');
  let entry = charts.get(el);
  if (entry && entry.key !== key) {
    entry.plot.destroy();
    entry.observer.disconnect();
    entry = undefined;
  }
  let note = el.querySelector('.chart-empty');
  if (!note) {
    note = document.createElement('p');
    note.className = 'chart-empty';
    el.append(note);
  }
  note.textContent = hasData ? '' : empty;
  note.hidden = hasData;
  const data = [ts.map((t) => t / 1000), ...series.map((s) => s.values)];
  if (entry) {
    entry.plot.setData(data);
    return entry.plot;
  }
  const opts = {
    width: widthOf(el),
    height: HEIGHT,
    // The tick labels uPlot drew on the canvas, kept beside it in the DOM (for tests and assistive tools).
    hooks: { draw: [(u) => { el.dataset.xTicks = (u.axes[0]._values ?? []).join('|'); el.dataset.yTicks = (u.axes[1]._values ?? []).join('|'); }] },
    legend: { live: true },
    cursor: { drag: { x: true, y: false } },
    scales: { x: { time: true } },
    axes: [
      { stroke: '#64748b', grid: { stroke: '#eef2f7' }, ticks: { stroke: '#e2e8f0' } },
      { stroke: '#64748b', grid: { stroke: '#eef2f7' }, ticks: { stroke: '#e2e8f0' }, label: unit, labelSize: unit ? 18 : 0, size: 56,
        values: (u, splits) => splits.map((v) => (v === null ? '' : Number(v).toLocaleString('en-US', { maximumFractionDigits: decimals }))) },
    ],
    series: [
      { value: (u, v) => (v === null ? '—' : new Date(v * 1000).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' })) },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: s.color ?? PALETTE[i % PALETTE.length],
        width: 1.6,
        fill: s.bars ? `${s.color ?? PALETTE[i % PALETTE.length]}55` : undefined,
        paths: s.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : s.step ? uPlot.paths.stepped({ align: 1 }) : undefined,
        spanGaps: !s.bars,
        points: { show: false },
        value: (u, v) => (v === null ? '—' : Number(v).toLocaleString('en-US', { maximumFractionDigits: decimals })),
      })),
    ],
  };
  const plot = new uPlot(opts, data, el);
  el.setAttribute('aria-label', `${series.map((s) => s.label).join(', ')}${unit ? ` (${unit})` : ''}`);
  el.prepend(plot.root);
  const observer = new ResizeObserver(() => plot.setSize({ width: widthOf(el), height: HEIGHT }));
  observer.observe(el);
  charts.set(el, { plot, observer, key });
  return plot;
}
