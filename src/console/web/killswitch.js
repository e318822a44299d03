// The kill switch: the user's state (Armed/Triggered) with the big trigger control, the reset with a
// fresh TOTP code, the report of what a trigger closed and cancelled, the account flags, history.
import { api } from './api.js';
import { loadAccounts } from './keys.js';
import { $, badge, clearError, confirmAction, fill, fillRows, h, labelRows, notify, showError } from './dom.js';
import { amount, dateTime, relative } from './format.js';

let user = '';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function setKillSwitchUser(id) { user = id; }

function showState(view) {
  const triggered = view.state === 'Triggered';
  const state = $('#ks-state');
  state.textContent = view.state.toUpperCase();
  state.className = `ks-state-value ${triggered ? 'triggered' : 'armed'}`;
  $('#ks-since').textContent = `since ${dateTime(view.since)} (${relative(view.since)})`;
  $('#ks-reset-form').hidden = !triggered;
  const pill = $('#ks-pill');
  pill.textContent = triggered ? 'KILL SWITCH TRIGGERED' : 'ARMED';
  pill.className = `pill ${triggered ? 'triggered' : 'armed'}`;
}

/** Only the state (the header pill on every view). */
export async function refreshState() {
  showState(await api('GET', `/users/${encodeURIComponent(user)}/kill-switch`));
}

function table(head, rows) {
  const t = h('table', { class: 'grid cards' }, h('thead', {}, h('tr', {}, head.map((title) => h('th', {}, title)))), h('tbody', {}, rows));
  labelRows(t.tBodies[0]);
  return h('div', { class: 'table-wrap' }, t);
}

function renderReport(report) {
  const box = $('#ks-report');
  const closed = report.closed.map((c) => h('tr', {},
    h('td', {}, c.login), h('td', { class: 'num' }, c.ticket), h('td', {}, c.symbol ?? ''), h('td', {}, c.side ?? ''),
    h('td', { class: 'num' }, c.volume ?? ''), h('td', { class: 'num' }, c.close_price ?? ''),
    h('td', { class: 'num' }, c.profit === undefined ? '' : amount(c.profit)), h('td', {}, badge(c.source ?? '', 'info'))));
  const cancelled = report.cancelled.map((o) => h('tr', {},
    h('td', {}, o.login), h('td', { class: 'num' }, o.id), h('td', {}, o.symbol ?? ''), h('td', {}, `${o.side ?? ''} ${o.type ?? ''}`),
    h('td', { class: 'num' }, o.volume ?? ''), h('td', {}, badge(o.source ?? '', 'info'))));
  const failed = report.failed.map((f) => h('tr', {}, h('td', {}, f.login), h('td', {}, f.ticket ?? '—'), h('td', {}, `${f.error.name}: ${f.error.message}`)));
  fill(box,
    h('h3', {}, `Kill switch report · ${report.closed.length} closed · ${report.cancelled.length} cancelled · ${report.failed.length} failed`),
    h('p', { class: 'muted' }, `Accounts: ${report.accounts.join(', ') || 'none'}. Webhooks paused: ${(report.paused_webhooks ?? []).join(', ') || 'none'}.`),
    closed.length ? [h('h4', {}, 'Positions closed'), table(['Account', 'Ticket', 'Symbol', 'Side', 'Lots', 'Close price', 'Profit', 'Source'], closed)] : null,
    cancelled.length ? [h('h4', {}, 'Pending orders cancelled'), table(['Account', 'Order', 'Symbol', 'Order type', 'Lots', 'Source'], cancelled)] : null,
    failed.length ? [h('h4', {}, 'Not done'), table(['Account', 'Ticket', 'Why'], failed)] : null);
  box.hidden = false;
  box.scrollIntoView({ block: 'start', behavior: 'smooth' });
}

async function loadAccountsTable() {
  const rows = (await loadAccounts()).filter((a) => a.user === user).map((a) => h('tr', { 'data-login': a.login },
    h('td', { class: 'cell-title' }, a.login),
    h('td', {}, badge(a.type, a.type === 'live' ? 'bad' : 'info')),
    h('td', {}, a.group),
    h('td', { class: 'num' }, amount(a.balance, a.currency)),
    h('td', { class: 'num' }, amount(a.equity, a.currency)),
    h('td', { class: 'num' }, amount(a.free_margin, a.currency)),
    h('td', {}, a.kill_switch.active ? badge('halted', 'bad') : badge('off', 'ok')),
    h('td', {}, h('div', { class: 'row-actions' }, h('button', {
      class: `btn small ${a.kill_switch.active ? '' : 'danger'}`, type: 'button',
      onclick: () => accountSwitch(a),
    }, a.kill_switch.active ? 'Release account' : 'Halt account')))));
  fillRows($('#accounts-table tbody'), rows);
}

async function accountSwitch(a) {
  if (!a.kill_switch.active) {
    const ok = await confirmAction(`Halt account ${a.login}?`, 'Closes its API, webhook and strategy positions, cancels its non-manual pending orders; its trading calls get 423 until released.', 'Halt account');
    if (!ok) return;
  }
  try {
    const answer = await api('PUT', `/accounts/${a.login}/kill-switch`, { active: !a.kill_switch.active });
    if (answer.active) renderReport({ ...answer, accounts: [a.login], paused_webhooks: [] });
    else notify(`Account ${a.login} may trade again`);
    await loadAccountsTable();
  } catch (err) { showError(err); }
}

async function loadHistory() {
  const { data } = await api('GET', `/users/${encodeURIComponent(user)}/kill-switch/history?limit=10`);
  fillRows($('#ks-history tbody'), data.map((e) => h('tr', {},
    h('td', {}, dateTime(e.at)), h('td', {}, e.action), h('td', {}, e.actor),
    h('td', {}, badge(e.state, e.state === 'Triggered' ? 'bad' : 'ok')),
    h('td', { class: 'num' }, e.report ? e.report.closed.length : '—'),
    h('td', { class: 'num' }, e.report ? e.report.cancelled.length : '—'),
    h('td', { class: 'num' }, e.report ? e.report.failed.length : '—'))));
}

export async function loadKillSwitch() {
  await Promise.all([refreshState(), loadAccountsTable(), loadHistory()]);
}

export function wireKillSwitch() {
  $('#ks-trigger').addEventListener('click', async () => {
    const ok = await confirmAction('Trigger the kill switch?',
      'Every API, webhook and strategy position on all your accounts is closed at market, non-manual pending orders are cancelled, your webhooks are paused, and trading calls get 423 until you reset it with a TOTP code.',
      'Trigger kill switch');
    if (!ok) return;
    const button = $('#ks-trigger');
    button.disabled = true;
    try {
      const report = await api('POST', `/users/${encodeURIComponent(user)}/kill-switch/trigger`);
      showState(report);
      // The report says what happened; a notice over it would hide its rows.
      renderReport(report);
      await Promise.all([loadAccountsTable(), loadHistory()]);
    } catch (err) {
      showError(err);
    } finally {
      button.disabled = false;
    }
  });
  const form = $('#ks-reset-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError(form);
    try {
      const answer = await api('POST', `/users/${encodeURIComponent(user)}/kill-switch/reset`, { totp: form.elements.totp.value.trim() });
      form.reset();
      showState(answer);
      notify(`Kill switch reset: ${plural(answer.released.length, 'account')} may trade again (webhooks stay paused)`);
      await Promise.all([loadAccountsTable(), loadHistory()]);
    } catch (err) {
      showError(err, form);
    }
  });
}
