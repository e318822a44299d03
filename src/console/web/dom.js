// Small DOM helpers. Text always goes in as text nodes (never as HTML), so nothing the API returns
// can inject markup into the page.

/** `h('td', {class: 'num'}, 'text', child)`; `on*` props become listeners; false/null children are skipped. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (typeof value === 'boolean') el.toggleAttribute(key, value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function fill(parent, ...children) {
  parent.replaceChildren();
  for (const child of children.flat(Infinity)) if (child) parent.append(child);
}

const keyOf = (node) => (node.nodeType === Node.ELEMENT_NODE
  ? node.dataset.key ?? node.dataset.login ?? node.dataset.ticket ?? node.dataset.order ?? node.dataset.symbol ?? null
  : null);

function morphNode(now, next) {
  if (now.nodeType !== next.nodeType || now.nodeName !== next.nodeName || keyOf(now) !== keyOf(next)) {
    now.replaceWith(next);
    return;
  }
  if (now.nodeType !== Node.ELEMENT_NODE) {
    if (now.nodeValue !== next.nodeValue) now.nodeValue = next.nodeValue;
    return;
  }
  for (const { name } of [...now.attributes]) if (!next.hasAttribute(name)) now.removeAttribute(name);
  for (const { name, value } of [...next.attributes]) if (now.getAttribute(name) !== value) now.setAttribute(name, value);
  morphChildren(now, [...next.childNodes]);
}

function morphChildren(parent, next) {
  const now = [...parent.childNodes];
  if (now.length !== next.length) {
    parent.replaceChildren(...next);
    return;
  }
  now.forEach((node, i) => morphNode(node, next[i]));
}

/**
 * Brings `parent`'s children to `children` while keeping the elements that stay (same tag and the
 * same data-key/login/ticket/order/symbol), so a view refreshed every second keeps the button
 * under a finger or a pointer, its focus and its listeners; only changed text and attributes move.
 */
export function morph(parent, ...children) {
  morphChildren(parent, children.flat(Infinity).filter(Boolean));
}

/**
 * Fills a table body and names each cell after its column (`data-label`), which the narrow layout
 * shows beside the value when the rows become cards.
 */
export function fillRows(tbody, rows) {
  fill(tbody, rows);
  labelRows(tbody);
}

/** fillRows for a table refreshed in place (see morph). */
export function morphRows(tbody, rows) {
  morph(tbody, rows);
  labelRows(tbody);
}

export function labelRows(tbody) {
  const titles = [...tbody.closest('table').querySelectorAll('thead th')].map((th) => th.textContent);
  for (const tr of tbody.rows) {
    if (tr.cells.length === 1 && tr.cells[0].colSpan > 1) continue;
    [...tr.cells].forEach((td, i) => { if (titles[i]) td.dataset.label = titles[i]; });
  }
}

export const badge = (text, tone = '') => h('span', { class: `badge ${tone}`.trim() }, text);

let noticeTimer = null;

function hideNotice() {
  $('#notice').hidden = true;
  document.body.classList.remove('noticing');
}

/**
 * A short message at the bottom; `tone` 'bad' for failures. While it shows, the page gets room
 * below its content, so the message never hides the end of a table; a click dismisses it.
 */
export function notify(text, tone = '') {
  const box = $('#notice');
  box.textContent = text;
  box.className = `notice ${tone}`.trim();
  box.hidden = false;
  box.onclick = hideNotice;
  document.body.classList.add('noticing');
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(hideNotice, tone === 'bad' ? 8000 : 4000);
}

const STEP_MS = 30_000;
let spentStep = -1;

/** A call just spent the code of this 30 s step: fresh-code forms say when the next one comes. */
export function noteCodeSpent() { spentStep = Math.floor(Date.now() / STEP_MS); }

function showTotpHints() {
  const now = Date.now();
  const waiting = Math.floor(now / STEP_MS) <= spentStep;
  const seconds = Math.ceil(((spentStep + 1) * STEP_MS - now) / 1000);
  for (const hint of document.querySelectorAll('.totp-hint')) {
    hint.hidden = !waiting;
    if (waiting) hint.textContent = `Each code works once, and the current one was just used: the next code comes in ${seconds} s.`;
  }
}
setInterval(showTotpHints, 1000);

/** Shows an API failure in a form's error line (or as a notice). */
export function showError(err, form) {
  const line = form ? form.querySelector('.error') : null;
  const text = err && err.message ? err.message : String(err);
  if (line) { line.textContent = text; line.hidden = false; } else notify(text, 'bad');
}

export function clearError(form) {
  const line = form.querySelector('.error');
  if (line) { line.textContent = ''; line.hidden = true; }
}

/** Wires a dialog's [data-close] buttons and resets its error line on open. */
export function openDialog(dialog) {
  for (const btn of dialog.querySelectorAll('[data-close]')) btn.onclick = () => dialog.close();
  const form = dialog.querySelector('form');
  if (form) clearError(form);
  dialog.showModal();
}

/** Asks a yes/no question in the confirm dialog; resolves true on Confirm. */
export function confirmAction(title, text, okLabel = 'Confirm') {
  const dialog = $('#confirm-dialog');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  $('#confirm-ok').textContent = okLabel;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
  });
}

/**
 * Asks for a fresh TOTP code, then runs `action(code)`; the dialog stays open with the error when
 * the action fails (a wrong code), and closes when it succeeds.
 */
export function withTotp(title, text, okLabel, action) {
  const dialog = $('#totp-dialog');
  const form = $('#totp-form');
  $('#totp-title').textContent = title;
  $('#totp-text').textContent = text;
  $('#totp-submit').textContent = okLabel;
  form.reset();
  form.onsubmit = async (event) => {
    event.preventDefault();
    clearError(form);
    try {
      await action(form.elements.totp.value.trim());
      dialog.close();
    } catch (err) {
      showError(err, form);
    }
  };
  openDialog(dialog);
  form.elements.totp.focus();
}
