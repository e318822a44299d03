// The console's JSON API as the page uses it: same origin, the session cookie (HttpOnly, sent by
// the browser) and the CSRF token on every state-changing call.
import { noteCodeSpent } from './dom.js';

let csrfToken = '';
let onLoggedOut = () => {};

export class ApiFailure extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : `HTTP ${status}`);
    this.status = status;
    this.name = (error && error.name) || 'error';
    this.field = error ? error.field : undefined;
  }
}

export function setSession(session) { csrfToken = session ? session.csrf_token : ''; }

/** Called when the session ended (expired, logged out elsewhere, server restarted). */
export function whenLoggedOut(callback) { onLoggedOut = callback; }

export async function api(method, path, body) {
  const headers = { accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`/console/api${path}`, {
    method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (res.ok) {
    if (body && body.totp) noteCodeSpent();
    return data;
  }
  const failure = new ApiFailure(res.status, data && data.error);
  if (res.status === 401 && path !== '/login' && failure.field !== 'totp') onLoggedOut(failure.message);
  throw failure;
}
