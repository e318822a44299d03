// The console page: sign-in with password + TOTP, then one view per task chosen by the URL hash.
// The session is an HttpOnly cookie; the page keeps only the CSRF token, which it gets at sign-in
// or from GET /console/api/session after a reload. The shown view is refreshed while the tab is
// visible: accounts and quotes every second, key charts with each bucket, the kill switch state
// in the header every 10 seconds.
import { loadAccountsView, refresh as refreshAccounts, wireAccounts } from './accounts.js';
import { api, setSession, whenLoggedOut } from './api.js';
import { loadAudit } from './audit.js';
import { $, clearError, notify, showError } from './dom.js';
import { refreshKeyCharts, wireKeyCharts } from './keycharts.js';
import { loadKeys, openCreateKey } from './keys.js';
import { loadKillSwitch, refreshState, setKillSwitchUser, wireKillSwitch } from './killswitch.js';
import { loadQuotes } from './quotes.js';
import { loadSecurity, setSecurityUser, wireSecurity } from './security.js';
import { loadWebhooks, wireWebhooks } from './webhooks.js';

const VIEWS = {
  accounts: { load: loadAccountsView, poll: refreshAccounts },
  quotes: { load: loadQuotes, poll: loadQuotes },
  keys: { load: loadKeys, poll: refreshKeyCharts },
  'kill-switch': { load: loadKillSwitch, poll: null },
  webhooks: { load: loadWebhooks, poll: null },
  audit: { load: () => loadAudit(false), poll: null },
  security: { load: loadSecurity, poll: null },
};
const POLL_MS = 1000;
const STATE_POLL_MS = 10_000;
let timers = [];
let polling = false;

function currentView() {
  const name = location.hash.replace(/^#/, '');
  return name in VIEWS ? name : 'accounts';
}

async function show(name) {
  for (const view of Object.keys(VIEWS)) $(`#view-${view}`).hidden = view !== name;
  for (const link of document.querySelectorAll('#nav a')) link.classList.toggle('active', link.dataset.view === name);
  try {
    await VIEWS[name].load();
  } catch (err) {
    showError(err);
  }
}

/** One refresh of the shown view; skipped while the previous one is still out or the tab is hidden. */
async function poll() {
  const view = VIEWS[currentView()];
  if (polling || document.hidden || view.poll === null || $('#nav').hidden) return;
  polling = true;
  try { await view.poll(); } catch { /* the next poll tries again; a 401 signs out through api.js */ } finally { polling = false; }
}

function stopTimers() {
  for (const t of timers) clearInterval(t);
  timers = [];
}

function signedOut(message) {
  setSession(null);
  stopTimers();
  $('#nav').hidden = true;
  $('#whoami').hidden = true;
  for (const view of Object.keys(VIEWS)) $(`#view-${view}`).hidden = true;
  $('#login-view').hidden = false;
  if (message) notify(message, 'bad');
  $('#login-user').focus();
}

async function signedIn(session) {
  setSession(session);
  setKillSwitchUser(session.user);
  setSecurityUser(session.user);
  $('#login-view').hidden = true;
  $('#nav').hidden = false;
  $('#whoami').hidden = false;
  $('#user-name').textContent = session.user;
  stopTimers();
  timers = [setInterval(() => { void poll(); }, POLL_MS), setInterval(() => { refreshState().catch(() => {}); }, STATE_POLL_MS)];
  await Promise.all([refreshState().catch(showError), show(currentView())]);
}

function wireLogin() {
  const form = $('#login-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError(form);
    const f = form.elements;
    try {
      const session = await api('POST', '/login', { user: f.user.value.trim(), password: f.password.value, totp: f.totp.value.trim() });
      form.reset();
      await signedIn(session);
    } catch (err) {
      f.totp.value = '';
      showError(err, form);
    }
  });
  $('#logout').addEventListener('click', async () => {
    try { await api('POST', '/logout'); } catch { /* the session may already be gone */ }
    signedOut('Logged out');
  });
}

async function boot() {
  wireLogin();
  wireAccounts();
  wireKillSwitch();
  wireWebhooks();
  wireKeyCharts();
  wireSecurity();
  $('#key-new').addEventListener('click', openCreateKey);
  $('#keys-refresh').addEventListener('click', () => show('keys'));
  $('#ks-refresh').addEventListener('click', () => show('kill-switch'));
  $('#webhooks-refresh').addEventListener('click', () => show('webhooks'));
  $('#audit-refresh').addEventListener('click', () => show('audit'));
  $('#audit-more').addEventListener('click', () => loadAudit(true).catch(showError));
  window.addEventListener('hashchange', () => { if (!$('#nav').hidden) void show(currentView()); });
  let session = null;
  try {
    session = await api('GET', '/session');
  } catch {
    session = null;
  }
  // From here on, a 401 means the session ended while the page was open.
  whenLoggedOut((message) => signedOut(message));
  if (session && session.actor === 'user') await signedIn(session);
  else signedOut(null);
}

void boot();
