// Accounts: a card per account (balance, equity, margin, free margin, margin level), and for the
// chosen one its open positions with profit at the latest quotes, its pending orders, each with
// source and key, and its equity and balance history. Polled every second while shown. Only
// manual positions and orders have Close / Cancel, each behind a confirm step.
import { api } from './api.js';
import { drawChart } from './charts.js';
import { $, badge, confirmAction, h, morph, morphRows, notify, showError } from './dom.js';
import { amount, dateTime, relative } from './format.js';

let chosen = null;
/** The chosen account's latest positions and orders: a confirm step tells today's numbers, not those of the row's first drawing. */
const latest = { positions: new Map(), orders: new Map() };
let range = '1d';
let equityLoadedAtMs = 0;
const EQUITY_REFRESH_MS = 30_000;

const SOURCE_TONE = { manual: 'ok', api: 'info', webhook: 'warn', strategy: 'warn', copy: '' };
const sourceBadge = (s) => badge(s, SOURCE_TONE[s] ?? '');
const tone = (x) => (x > 0 ? 'profit up' : x < 0 ? 'profit down' : 'profit');
const level = (a) => (a.margin_level === 0 ? '—' : `${a.margin_level.toLocaleString('en-US', { maximumFractionDigits: 2 })}%`);
const price = (x) => (x === null || x === undefined ? '—' : String(x));
const levels = (x) => (x.sl === null && x.tp === null ? '—' : `${x.sl ?? '—'} / ${x.tp ?? '—'}`);

function keyCell(x) {
  if (x.key_id) return h('span', { title: x.key_id }, x.key_name ?? x.key_id);
  if (x.webhook_id) return h('span', { class: 'mono' }, `webhook ${x.webhook_id}`);
  return h('span', { class: 'muted' }, '—');
}

function metric(label, value, cls = '') {
  return h('div', { class: `metric ${cls}`.trim() }, h('span', { class: 'metric-label' }, label), h('span', { class: 'metric-value' }, value));
}

function card(a) {
  const profit = a.equity - a.balance;
  return h('button', { class: `account-card ${a.login === chosen ? 'chosen' : ''}`.trim(), type: 'button', 'data-login': a.login, onclick: () => choose(a.login).catch(showError) },
    h('div', { class: 'account-card-head' },
      h('span', { class: 'cell-title' }, a.login),
      badge(a.type, a.type === 'live' ? 'bad' : 'info'),
      h('span', { class: 'muted small' }, `${a.group} · ${a.server} · 1:${a.leverage}`),
      a.kill_switch.active ? badge('halted', 'bad') : null),
    h('div', { class: 'metrics' },
      metric('Balance', amount(a.balance, a.currency)),
      metric('Equity', amount(a.equity, a.currency), tone(profit)),
      metric('Margin', amount(a.margin, a.currency)),
      metric('Free margin', amount(a.free_margin, a.currency)),
      metric('Margin level', level(a))));
}

function positionRow(p, currency) {
  return h('tr', { 'data-ticket': p.ticket },
    h('td', { class: 'num' }, p.ticket),
    h('td', { class: 'cell-title' }, p.symbol),
    h('td', {}, badge(p.side, p.side === 'buy' ? 'ok' : 'bad')),
    h('td', { class: 'num' }, p.volume),
    h('td', { class: 'num' }, price(p.open_price)),
    h('td', { class: 'num' }, price(p.current_price)),
    h('td', { class: 'num' }, levels(p)),
    h('td', { class: `num ${tone(p.profit ?? 0)}`, 'data-profit': p.profit ?? '' }, p.profit === null ? '—' : amount(p.profit, currency)),
    h('td', {}, sourceBadge(p.source)),
    h('td', {}, keyCell(p)),
    h('td', { title: dateTime(p.opened_at) }, relative(p.opened_at)),
    h('td', {}, p.closable
      ? h('div', { class: 'row-actions' }, h('button', { class: 'btn small danger', type: 'button', onclick: () => closePosition(p.ticket) }, 'Close'))
      : null));
}

function orderRow(o) {
  return h('tr', { 'data-order': o.id },
    h('td', { class: 'num' }, o.id),
    h('td', { class: 'cell-title' }, o.symbol),
    h('td', {}, `${o.side} ${o.type}`),
    h('td', { class: 'num' }, o.volume),
    h('td', { class: 'num' }, price(o.price)),
    h('td', { class: 'num' }, levels(o)),
    h('td', {}, sourceBadge(o.source)),
    h('td', {}, keyCell(o)),
    h('td', { title: dateTime(o.created_at) }, relative(o.created_at)),
    h('td', {}, o.cancellable
      ? h('div', { class: 'row-actions' }, h('button', { class: 'btn small danger-outline', type: 'button', onclick: () => cancelOrder(o.id) }, 'Cancel'))
      : null));
}

async function closePosition(ticket) {
  const p = latest.positions.get(ticket);
  if (!p) return;
  const ok = await confirmAction(`Close position ${p.ticket}?`,
    `${p.side} ${p.volume} lots ${p.symbol} opened at ${p.open_price} is closed at market (now about ${price(p.current_price)}, profit about ${p.profit ?? '—'}).`, 'Close position');
  if (!ok) return;
  try {
    const r = await api('DELETE', `/accounts/${encodeURIComponent(chosen)}/positions/${p.ticket}`);
    notify(`Position ${r.ticket} closed at ${r.close_price}, profit ${r.profit}`);
    await refresh();
  } catch (err) { showError(err); }
}

async function cancelOrder(id) {
  const o = latest.orders.get(id);
  if (!o) return;
  const ok = await confirmAction(`Cancel order ${o.id}?`, `${o.side} ${o.type} ${o.volume} lots ${o.symbol} at ${o.price} is cancelled.`, 'Cancel order');
  if (!ok) return;
  try {
    await api('DELETE', `/accounts/${encodeURIComponent(chosen)}/orders/${o.id}`);
    notify(`Order ${o.id} cancelled`);
    await refresh();
  } catch (err) { showError(err); }
}

async function loadEquity() {
  const e = await api('GET', `/accounts/${encodeURIComponent(chosen)}/equity?range=${range}`);
  equityLoadedAtMs = Date.now();
  $('#equity-title').textContent = `Equity and balance · ${e.login} (${e.currency})`;
  drawChart($('#equity-chart'), e.ts, [
    { label: 'Equity', values: e.equity, color: '#0369a1', step: true },
    { label: 'Balance', values: e.balance, color: '#64748b', step: true },
  ], { unit: e.currency, empty: 'No history yet: a point is taken every minute.' });
}

async function loadDetail() {
  const a = await api('GET', `/accounts/${encodeURIComponent(chosen)}`);
  latest.positions = new Map(a.positions.map((p) => [p.ticket, p]));
  latest.orders = new Map(a.orders.map((o) => [o.id, o]));
  morphRows($('#positions-table tbody'), a.positions.map((p) => positionRow(p, a.currency)));
  $('#positions-empty').hidden = a.positions.length > 0;
  morphRows($('#orders-table tbody'), a.orders.map(orderRow));
  $('#orders-empty').hidden = a.orders.length > 0;
  $('#account-detail').hidden = false;
}

async function choose(login) {
  chosen = login;
  for (const c of document.querySelectorAll('.account-card')) c.classList.toggle('chosen', c.dataset.login === login);
  await Promise.all([loadDetail(), loadEquity()]);
}

/** One poll: the cards, the chosen account, and its equity chart now and then. */
export async function refresh() {
  const { data } = await api('GET', '/accounts');
  if (chosen === null || !data.some((a) => a.login === chosen)) chosen = data[0]?.login ?? null;
  morph($('#account-cards'), data.map(card));
  $('#accounts-empty').hidden = data.length > 0;
  if (chosen === null) { $('#account-detail').hidden = true; return; }
  await Promise.all([loadDetail(), Date.now() - equityLoadedAtMs > EQUITY_REFRESH_MS ? loadEquity() : null]);
}

export async function loadAccountsView() {
  equityLoadedAtMs = 0;
  await refresh();
}

export function wireAccounts() {
  for (const b of document.querySelectorAll('#equity-range button')) {
    b.addEventListener('click', () => {
      range = b.dataset.range;
      for (const other of document.querySelectorAll('#equity-range button')) other.classList.toggle('on', other === b);
      if (chosen !== null) loadEquity().catch(showError);
    });
  }
}
