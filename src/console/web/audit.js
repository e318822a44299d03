// The audit log: the user's own entries, newest first, one page at a time.
import { api } from './api.js';
import { $, badge, h, labelRows } from './dom.js';
import { dateTime } from './format.js';

let nextCursor = null;

const label = (key) => key.replace(/_/g, ' ');
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A value of a detail in words: `from → to` for a change, `name value` pairs for a record. */
function valueText(v) {
  if (v === null || v === undefined) return 'none';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map(valueText).join(', ');
  if (typeof v === 'string' && ISO_TIME.test(v)) return dateTime(v);
  if (typeof v !== 'object') return String(v);
  if ('from' in v && 'to' in v && Object.keys(v).length === 2) return `${valueText(v.from)} → ${valueText(v.to)}`;
  return Object.entries(v).map(([k, x]) => `${label(k)} ${valueText(x)}`).join(', ');
}

/** What the entry says changed (or was asked), one line per item; the refusal first. */
function detail(e) {
  const items = [];
  if (e.error) items.push(h('div', { class: 'error' }, `${e.error.name}: ${e.error.message}`));
  for (const [key, value] of Object.entries(e.detail ?? {})) {
    items.push(h('div', { class: 'kv' }, h('span', { class: 'kv-key' }, label(key)), h('span', {}, valueText(value))));
  }
  return items.length === 0 ? h('span', { class: 'muted' }, '—') : items;
}

function row(e) {
  return h('tr', {},
    h('td', {}, dateTime(e.at)),
    h('td', {}, e.actor),
    h('td', { class: 'mono' }, e.ip),
    h('td', {}, h('div', { class: 'cell-title' }, e.action), h('div', { class: 'cell-sub mono' }, `${e.method} ${e.path}`)),
    h('td', { class: 'mono' }, e.target ?? ''),
    h('td', {}, badge(`${e.outcome} ${e.status}`, e.outcome === 'ok' ? 'ok' : 'bad')),
    h('td', { class: 'detail-cell' }, detail(e)));
}

export async function loadAudit(more = false) {
  const page = await api('GET', `/audit?limit=50${more && nextCursor ? `&cursor=${nextCursor}` : ''}`);
  const body = $('#audit-table tbody');
  if (!more) body.replaceChildren();
  body.append(...page.data.map(row));
  labelRows(body);
  nextCursor = page.next_cursor;
  $('#audit-more').hidden = nextCursor === null;
}
