// Security: moving to a new authenticator app. A fresh code of the current app starts the
// enrolment; the page shows the new secret as a QR code (an image of the SVG the server made), the
// otpauth URI and the secret to type by hand; a code of the new entry confirms it. Until then the
// current app keeps working.
import { api } from './api.js';
import { $, clearError, notify, showError } from './dom.js';
import { dateTime } from './format.js';

let user = '';

export function setSecurityUser(id) { user = id; }

function showEnrolment(e) {
  $('#enrol-qr').src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(e.qr_svg)}`;
  $('#enrol-secret').value = e.secret.replace(/(.{4})(?=.)/g, '$1 ');
  $('#enrol-uri').value = e.otpauth_uri;
  $('#enrol-expires').textContent = `Confirm by ${dateTime(e.expires_at)}; after that, start again.`;
  $('#enrol-copy').onclick = async () => {
    try { await navigator.clipboard.writeText(e.otpauth_uri); } catch { $('#enrol-uri').select(); document.execCommand('copy'); }
    notify('otpauth URI copied');
  };
  $('#enrol-step').hidden = false;
  $('#enrol-new-totp').focus();
}

function forget() {
  $('#enrol-step').hidden = true;
  $('#enrol-qr').removeAttribute('src');
  $('#enrol-secret').value = '';
  $('#enrol-uri').value = '';
}

export async function loadSecurity() { forget(); }

export function wireSecurity() {
  const start = $('#enrol-start');
  start.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError(start);
    try {
      const e = await api('POST', `/users/${encodeURIComponent(user)}/totp/enrol`, { totp: start.elements.totp.value.trim() });
      start.reset();
      showEnrolment(e);
    } catch (err) { showError(err, start); }
  });
  const confirm = $('#enrol-confirm');
  confirm.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError(confirm);
    try {
      await api('POST', `/users/${encodeURIComponent(user)}/totp/confirm`, { totp: confirm.elements.totp.value.trim() });
      confirm.reset();
      forget();
      notify('New authenticator confirmed: sign in with its codes from now on');
    } catch (err) { showError(err, confirm); }
  });
}
