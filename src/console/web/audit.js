// The audit log: the user's own entries, newest first, one page at a time.
import { api } from './api.js';
import { $, badge, h } from './dom.js';
import { dateTime } from './format.js';

let nextCursor = null;

function detailText(e) {
  const parts = [];
  if (e.error) parts.push(`${e.error.name}: ${e.error.message}`);
  if (e.detail) parts.push(JSON.stringify(e.detail));
  return parts.join(' · ');
}

function row(e) {
  return h('tr', {},
    h('td', {}, dateTime(e.at)),
    h('td', {}, e.actor),
    h('td', { class: 'mono' }, e.ip),
    h('td', {}, h('div', { class: 'cell-title' }, e.action), h('div', { class: 'cell-sub mono' }, `${e.method} ${e.path}`)),
    h('td', { class: 'mono' }, e.target ?? ''),
    h('td', {}, badge(`${e.outcome} ${e.status}`, e.outcome === 'ok' ? 'ok' : 'bad')),
    h('td', { class: 'cell-sub' }, detailText(e)));
}

export async function loadAudit(more = false) {
  const page = await api('GET', `/audit?limit=50${more && nextCursor ? `&cursor=${nextCursor}` : ''}`);
  const body = $('#audit-table tbody');
  if (!more) body.replaceChildren();
  body.append(...page.data.map(row));
  nextCursor = page.next_cursor;
  $('#audit-more').hidden = nextCursor === null;
}
