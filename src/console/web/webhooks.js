// Signal webhooks: the list, create and edit (allowed symbols, targets with their sizing rules),
// pause/resume, secret rotation (the new secret shown once) and each webhook's signal log.
import { api } from './api.js';
import { $, badge, clearError, confirmAction, fill, fillRows, h, labelRows, notify, openDialog, showError } from './dom.js';
import { dateTime } from './format.js';
import { loadAccounts, showSecret } from './keys.js';

const SIZING = {
  fixed: { label: 'fixed lots', field: 'lots', step: '0.01' },
  multiplier: { label: 'multiplier × signal volume', field: 'factor', step: 'any' },
  risk_percent: { label: 'risk % of equity', field: 'percent', step: 'any' },
};

const sizingText = (s) => (s.type === 'fixed' ? `${s.lots} lots` : s.type === 'multiplier' ? `× ${s.factor}` : `${s.percent}% risk`);

function targetRow(accounts, target) {
  const sizing = target ? target.sizing : { type: 'fixed', lots: 0.01 };
  const login = h('select', { name: 'login' }, accounts.map((a) => h('option', { value: a.login }, `${a.login} · ${a.type} · ${a.currency}`)));
  if (target) login.value = target.login;
  const type = h('select', { name: 'type' }, Object.entries(SIZING).map(([value, s]) => h('option', { value }, s.label)));
  type.value = sizing.type;
  const value = h('input', { name: 'value', type: 'number', min: '0', step: SIZING[sizing.type].step, required: true, value: sizing[SIZING[sizing.type].field] });
  type.onchange = () => { value.step = SIZING[type.value].step; };
  const row = h('div', { class: 'target-row' },
    h('label', {}, 'Account', login), h('label', {}, 'Sizing', type), h('label', {}, 'Value', value),
    h('button', { class: 'btn ghost small', type: 'button', onclick: () => row.remove(), title: 'Remove target' }, '✕'));
  return row;
}

function readTargets() {
  return [...document.querySelectorAll('#webhook-targets .target-row')].map((row) => {
    const type = row.querySelector('[name=type]').value;
    return { login: row.querySelector('[name=login]').value, sizing: { type, [SIZING[type].field]: Number(row.querySelector('[name=value]').value) } };
  });
}

async function openEditor(hook) {
  const dialog = $('#webhook-dialog');
  const form = $('#webhook-form');
  form.reset();
  let accounts;
  try { accounts = await loadAccounts(); } catch (err) { showError(err); return; }
  $('#webhook-title').textContent = hook ? `Edit webhook ${hook.id}` : 'New webhook';
  $('#webhook-id-label').hidden = Boolean(hook);
  form.elements.symbols.value = hook ? hook.symbols.join(', ') : '';
  const targets = $('#webhook-targets');
  fill(targets, hook ? hook.targets.map((t) => targetRow(accounts, t)) : [targetRow(accounts, null)]);
  $('#webhook-add-target').onclick = () => targets.append(targetRow(accounts, null));
  form.onsubmit = async (event) => {
    event.preventDefault();
    clearError(form);
    const body = {
      symbols: form.elements.symbols.value.split(/[\s,]+/).map((s) => s.trim().toUpperCase()).filter(Boolean),
      targets: readTargets(),
    };
    try {
      if (hook) {
        await api('PUT', `/webhooks/${hook.id}`, body);
        notify(`Webhook ${hook.id} saved`);
        dialog.close();
      } else {
        const id = form.elements.id.value.trim();
        const created = await api('POST', '/webhooks', id ? { id, ...body } : body);
        dialog.close();
        showSecret('Webhook created', created.id, created.secret);
      }
      await loadWebhooks();
    } catch (err) {
      showError(err, form);
    }
  };
  openDialog(dialog);
}

async function act(method, path, message) {
  try {
    const answer = await api(method, path);
    if (message) notify(message);
    await loadWebhooks();
    return answer;
  } catch (err) {
    showError(err);
    return null;
  }
}

async function rotate(hook) {
  const ok = await confirmAction(`Rotate the secret of ${hook.id}?`, 'Signals with the old secret are refused (401) from now on: update your alert senders.', 'Rotate secret');
  if (!ok) return;
  const answer = await act('POST', `/webhooks/${hook.id}/rotate-secret`, null);
  if (answer) showSecret('New webhook secret', answer.id, answer.secret);
}

function fanoutText(f) {
  return f.error ? `${f.login}: ${f.error.name}` : `${f.login}: ${f.volume} lots #${f.ticket ?? '…'}`;
}

async function showSignals(hook, cursor = null, append = false) {
  const box = $('#signal-log');
  let page;
  try { page = await api('GET', `/webhooks/${hook.id}/signals?limit=25${cursor ? `&cursor=${cursor}` : ''}`); } catch (err) { showError(err); return; }
  const rows = page.data.map((e) => h('tr', {},
    h('td', {}, dateTime(e.at)),
    h('td', {}, badge(`${e.status} ${e.outcome}`, e.outcome === 'accepted' ? 'ok' : e.outcome === 'duplicate' ? 'info' : 'bad')),
    h('td', {}, e.request ? [e.request.action, e.request.symbol, e.request.volume].filter((x) => x !== undefined).join(' ') : '—'),
    h('td', {}, (e.fanout ?? []).map((f) => badge(fanoutText(f), f.error ? 'bad' : ''))),
    h('td', {}, e.error ? `${e.error.name}: ${e.error.message}` : ''),
    h('td', { class: 'num' }, e.latency_ms === undefined ? '' : `${e.latency_ms} ms`),
    h('td', { class: 'mono' }, e.ip)));
  if (!append) {
    fill(box,
      h('div', { class: 'view-head' }, h('h3', {}, `Signal log · ${hook.id}`), h('button', { class: 'btn ghost small', type: 'button', onclick: () => { box.hidden = true; } }, 'Close')),
      h('div', { class: 'table-wrap' }, h('table', { class: 'grid cards', id: 'signal-table' },
        h('thead', {}, h('tr', {}, ['When', 'Result', 'Signal', 'Fan-out', 'Refused because', 'Latency', 'From'].map((t) => h('th', {}, t)))),
        h('tbody', {}))),
      h('button', { class: 'btn ghost', type: 'button', id: 'signals-more', hidden: true }, 'Older signals'));
  }
  const body = $('#signal-table tbody');
  body.append(...rows);
  if (!append && rows.length === 0) body.append(h('tr', {}, h('td', { colspan: 7, class: 'empty' }, 'No signals yet.')));
  labelRows(body);
  const more = $('#signals-more');
  more.hidden = page.next_cursor === null;
  more.onclick = () => showSignals(hook, page.next_cursor, true);
  box.hidden = false;
}

export async function loadWebhooks() {
  const { data } = await api('GET', '/webhooks');
  fillRows($('#webhooks-table tbody'), data.map((w) => h('tr', { 'data-webhook': w.id },
    h('td', { class: 'mono cell-title' }, w.id),
    h('td', {}, w.symbols.map((s) => badge(s, 'info'))),
    h('td', {}, w.targets.map((t) => h('div', {}, h('b', {}, t.login), ` ${sizingText(t.sizing)}`))),
    h('td', {}, w.paused ? badge('Paused', 'warn') : badge('Active', 'ok')),
    h('td', {}, dateTime(w.created_at)),
    h('td', {}, h('div', { class: 'row-actions' },
      h('button', { class: 'btn small ghost', type: 'button', onclick: () => showSignals(w) }, 'Signal log'),
      h('button', { class: 'btn small', type: 'button', onclick: () => openEditor(w) }, 'Edit'),
      w.paused
        ? h('button', { class: 'btn small', type: 'button', onclick: () => act('POST', `/webhooks/${w.id}/resume`, `Webhook ${w.id} resumed`) }, 'Resume')
        : h('button', { class: 'btn small', type: 'button', onclick: () => act('POST', `/webhooks/${w.id}/pause`, `Webhook ${w.id} paused: signals get 423`) }, 'Pause'),
      h('button', { class: 'btn small danger', type: 'button', onclick: () => rotate(w) }, 'Rotate secret'))))));
  $('#webhooks-empty').hidden = data.length > 0;
}

export function wireWebhooks() {
  $('#webhook-new').addEventListener('click', () => openEditor(null));
}
