// Live quotes: every symbol's bid and ask with the spread, the time of the last tick and the trading
// session (open or closed, and when that changes), the symbols you hold positions in first.
// Polled every second while shown; a price that moved is marked up or down until the next poll.
import { api } from './api.js';
import { $, badge, h, morphRows } from './dom.js';
import { relative } from './format.js';

const previous = new Map();

function until(iso) {
  const s = Math.max(0, Math.round((Date.parse(iso) - Date.now()) / 1000));
  const d = Math.floor(s / 86400);
  const hrs = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  return d > 0 ? `${d} d ${hrs} h` : hrs > 0 ? `${hrs} h ${m} min` : `${m} min`;
}

function sessionCell(s) {
  const state = s.open ? badge('open', 'ok') : badge('closed', 'bad');
  const next = s.next_change === null ? 'trades around the clock' : `${s.open ? 'closes' : 'opens'} in ${until(s.next_change)}`;
  return [state, h('div', { class: 'cell-sub', title: s.hours }, next)];
}

function move(symbol, field, value) {
  const before = previous.get(`${symbol}.${field}`);
  previous.set(`${symbol}.${field}`, value);
  return before === undefined || value === null || before === value ? '' : value > before ? 'tick-up' : 'tick-down';
}

function row(q) {
  const fmt = (x) => (x === null ? '—' : x.toFixed(q.digits));
  return h('tr', { 'data-symbol': q.symbol },
    h('td', { class: 'cell-title' }, q.symbol),
    h('td', { class: `num price ${move(q.symbol, 'bid', q.bid)}`.trim() }, fmt(q.bid)),
    h('td', { class: `num price ${move(q.symbol, 'ask', q.ask)}`.trim() }, fmt(q.ask)),
    h('td', { class: 'num' }, q.spread_points === null ? '—' : `${q.spread_points} pts`),
    h('td', {}, q.ts === null ? 'no quote yet' : relative(new Date(q.ts).toISOString())),
    h('td', {}, sessionCell(q.session)),
    h('td', { class: 'num' }, q.open_positions === 0 ? h('span', { class: 'muted' }, '0') : badge(String(q.open_positions), 'info')));
}

export async function loadQuotes() {
  const { data } = await api('GET', '/quotes');
  const sorted = [...data].sort((a, b) => (b.open_positions > 0) - (a.open_positions > 0) || (a.symbol < b.symbol ? -1 : 1));
  morphRows($('#quotes-table tbody'), sorted.map(row));
}
