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

export const badge = (text, tone = '') => h('span', { class: `badge ${tone}`.trim() }, text);

let noticeTimer = null;
/** A short message in the corner; `tone` 'bad' for failures. */
export function notify(text, tone = '') {
  const box = $('#notice');
  box.textContent = text;
  box.className = `notice ${tone}`.trim();
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, tone === 'bad' ? 8000 : 4000);
}

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
