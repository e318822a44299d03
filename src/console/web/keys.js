// API keys: the list with every field of the spec's key table, advisories and statistics; create
// (fresh TOTP; the secret shown once), pause/resume, the key kill switch, revoke (fresh TOTP).
import { api } from './api.js';
import { $, badge, clearError, fill, fillRows, h, notify, openDialog, showError, withTotp } from './dom.js';
import { count, date, ms, percent, relative } from './format.js';
import { showKeyCharts } from './keycharts.js';

const ADVISORY_LABEL = { no_expiry: 'no expiry', no_ip_whitelist: 'no IP whitelist', older_than_12_months: 'older than 12 months' };
const STATUS_TONE = { Active: 'ok', Paused: 'warn', Expired: 'bad' };
const DAY_MS = 86400_000;

let accounts = [];

export async function loadAccounts() {
  accounts = (await api('GET', '/accounts')).data;
  return accounts;
}

function keyRow(k, reload) {
  const stats = k.stats;
  const account = k.account;
  const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 11 }, statsDetail(k)));
  const act = (label, tone, onclick) => h('button', { class: `btn small ${tone}`, type: 'button', onclick }, label);
  const row = h('tr', { 'data-key': k.id },
    h('td', {},
      h('div', { class: 'cell-title' }, k.name),
      h('div', { class: 'cell-sub mono' }, k.id)),
    h('td', {},
      h('div', { class: 'cell-title' }, k.login),
      account ? h('div', { class: 'cell-sub' }, badge(account.type, account.type === 'live' ? 'bad' : 'info'), account.group) : null),
    h('td', {}, k.scopes.map((s) => badge(s, s === 'trade' ? 'warn' : 'info'))),
    h('td', { class: 'num' }, `${k.rate_limit}/s`),
    h('td', {}, k.last_used
      ? [h('div', {}, relative(k.last_used.at)), h('div', { class: 'cell-sub mono' }, k.last_used.ip ?? '')]
      : h('span', { class: 'muted' }, 'never')),
    h('td', { class: 'nowrap' }, k.expires_at ? date(k.expires_at) : h('span', { class: 'muted' }, 'none')),
    h('td', {}, badge(k.status, STATUS_TONE[k.status] ?? ''), k.kill_switch.active ? badge('kill switch', 'bad') : null),
    h('td', {}, k.advisories.length === 0 ? badge('none', 'ok') : k.advisories.map((a) => h('span', { class: 'badge warn', title: a.message }, ADVISORY_LABEL[a.code] ?? a.code))),
    h('td', { class: 'num' },
      h('div', { class: 'requests' }, count(stats.requests)),
      h('div', { class: `cell-sub ${stats.error_rate > 0.05 ? 'error' : ''}`.trim() }, stats.requests === 0 ? 'no errors' : `${percent(stats.error_rate)} errors`)),
    h('td', { class: 'num' }, h('div', {}, ms(stats.latency_ms.p50)), h('div', { class: 'cell-sub' }, ms(stats.latency_ms.p99))),
    h('td', {}, h('div', { class: 'row-actions' },
      act('Charts', 'ghost', () => showKeyCharts(k).catch(showError)),
      act('Stats', 'ghost', () => { detail.hidden = !detail.hidden; }),
      k.status === 'Paused'
        ? act('Resume', '', () => change(`/keys/${k.id}/resume`, `Key ${k.name} resumed`, reload))
        : act('Pause', '', () => change(`/keys/${k.id}/pause`, `Key ${k.name} paused: its calls get 401`, reload)),
      h('button', {
        class: `btn small ${k.kill_switch.active ? '' : 'danger-outline'}`, type: 'button', title: "The key's kill switch: its trading calls get 423",
        onclick: () => keySwitch(k, reload),
      }, k.kill_switch.active ? 'Release' : 'Halt'),
      act('Revoke', 'danger', () => revoke(k, reload)))));
  return [row, detail];
}

function statsDetail(k) {
  const s = k.stats;
  const errors = Object.entries(s.errors_by_name);
  return h('div', { class: 'stats-detail' },
    h('b', {}, `Requests since ${date(s.since)}: `), `${count(s.requests)} (${count(s.errors)} errors), latency p50 ${ms(s.latency_ms.p50)}, p90 ${ms(s.latency_ms.p90)}, p99 ${ms(s.latency_ms.p99)}`,
    h('div', {}, h('b', {}, 'Top endpoints: '), s.top_endpoints.length === 0 ? 'none yet'
      : s.top_endpoints.map((e) => badge(`${e.endpoint} · ${count(e.requests)}`))),
    errors.length === 0 ? null : h('div', {}, h('b', {}, 'Errors: '), errors.map(([name, n]) => badge(`${name} · ${count(n)}`, 'bad'))),
    h('div', {}, h('b', {}, 'IP whitelist: '), k.ip_whitelist.length === 0 ? 'none (any address)' : k.ip_whitelist.join(', ')),
    k.advisories.map((a) => h('div', { class: 'cell-sub' }, `⚠ ${a.message}`)));
}

async function change(path, message, reload) {
  try {
    await api('POST', path);
    notify(message);
    await reload();
  } catch (err) { showError(err); }
}

async function keySwitch(k, reload) {
  try {
    await api('PUT', `/keys/${k.id}/kill-switch`, { active: !k.kill_switch.active });
    notify(k.kill_switch.active ? `Key ${k.name} may trade again` : `Key ${k.name}: trading calls now get 423`);
    await reload();
  } catch (err) { showError(err); }
}

function revoke(k, reload) {
  withTotp(`Revoke ${k.name}?`, `Key ${k.id} stops working at once, for good (401 from then on). It disappears from this list.`, 'Revoke key', async (totp) => {
    await api('DELETE', `/keys/${k.id}`, { totp });
    notify(`Key ${k.name} revoked`);
    await reload();
  });
}

export async function loadKeys() {
  const { data } = await api('GET', '/keys');
  fillRows($('#keys-table tbody'), data.map((k) => keyRow(k, loadKeys)));
  $('#keys-empty').hidden = data.length > 0;
}

function fillRates(select, login) {
  const account = accounts.find((a) => a.login === login);
  const rates = account ? account.rate_limits : [10, 20, 50];
  const current = Number(select.value) || 20;
  fill(select, rates.map((r) => h('option', { value: r }, r === 100 ? '100 (Pro/ECN, equity ≥ 50,000)' : String(r))));
  select.value = String(rates.includes(current) ? current : 20);
}

export async function openCreateKey() {
  const dialog = $('#key-dialog');
  const form = $('#key-form');
  form.reset();
  try { await loadAccounts(); } catch (err) { showError(err); return; }
  const select = $('#key-login');
  fill(select, accounts.map((a) => h('option', { value: a.login }, `${a.login} · ${a.type} · ${a.group} · ${a.currency}`)));
  fillRates($('#key-rate'), select.value);
  select.onchange = () => fillRates($('#key-rate'), select.value);
  $('#key-expires').value = new Date(Date.now() + 180 * DAY_MS).toISOString().slice(0, 10);
  form.onsubmit = async (event) => {
    event.preventDefault();
    clearError(form);
    const f = form.elements;
    const scopes = [...form.querySelectorAll('input[name=scope]:checked')].map((c) => c.value);
    const noExpiry = form.querySelector('input[name=expiry]:checked').value === 'none';
    const request = {
      name: f.name.value.trim(),
      login: f.login.value,
      scopes,
      rate_limit: Number(f.rate_limit.value),
      expires_at: noExpiry || !f.expires_on.value ? null : `${f.expires_on.value}T00:00:00Z`,
      ip_whitelist: f.ip_whitelist.value.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean),
      totp: f.totp.value.trim(),
    };
    try {
      const created = await api('POST', '/keys', request);
      dialog.close();
      showSecret('Key created', created.id, created.secret);
      await loadKeys();
    } catch (err) {
      showError(err, form);
    }
  };
  openDialog(dialog);
  form.elements.name.focus();
}

/** The one-time secret display: key or webhook id, the secret, a copy button. */
export function showSecret(title, id, secret) {
  const dialog = $('#secret-dialog');
  $('#secret-title').textContent = title;
  $('#secret-id').value = id;
  const field = $('#secret-value');
  field.value = secret;
  $('#secret-copy').onclick = async () => {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      field.select();
      document.execCommand('copy');
    }
    notify('Secret copied to the clipboard');
  };
  // Nothing keeps the secret once the dialog is closed.
  dialog.addEventListener('close', () => { field.value = ''; }, { once: true });
  openDialog(dialog);
  field.select();
}
