// The checks a console request passes before its route runs: who it is (operator bearer token or
// session cookie) and, for a state-changing call from a browser, that it came from the console's
// own page: the Origin (when sent) names this console, Sec-Fetch-Site (when sent) is not
// cross-site, and a session's call carries its synchronizer token in X-CSRF-Token. A cookie alone
// never authorises a change, so a cross-site form or fetch cannot act for a logged-in user.
import { ApiError } from '../gateway/errors.js';
import { ANONYMOUS, OPERATOR, type Actor } from './actor.js';
import { bearerMatches } from './operator-auth.js';
import { csrfMatches, SESSION_COOKIE, type SessionStore } from './sessions.js';

/** The request headers the guard reads (uWS's request is valid only synchronously). */
export interface GuardHeaders {
  readonly authorization: string;
  readonly cookie: string;
  readonly origin: string;
  readonly host: string;
  readonly secFetchSite: string;
  readonly csrfToken: string;
}

export type Access = 'operator' | 'member' | 'public';

/** The values of a cookie in a Cookie header, in order. */
export function cookieValues(header: string, name: string): string[] {
  const out: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) out.push(part.slice(eq + 1).trim());
  }
  return out;
}

export function authenticateConsoleCall(access: Access, h: GuardHeaders, adminToken: string, sessions: SessionStore): Actor {
  if (access === 'public') return ANONYMOUS;
  if (h.authorization !== '') {
    if (!bearerMatches(h.authorization, adminToken)) throw new ApiError('unauthorized', 'operator token wrong (Authorization: Bearer <admin_token>)');
    return OPERATOR;
  }
  const ids = cookieValues(h.cookie, SESSION_COOKIE);
  if (ids.length === 0) {
    throw new ApiError('unauthorized', 'log in first (POST /console/api/login), or send the operator token (Authorization: Bearer <admin_token>)');
  }
  for (const id of ids) {
    const session = sessions.use(id);
    if (session !== null) {
      if (access === 'operator') throw new ApiError('forbidden', 'this call is for the operator only');
      return { kind: 'user', user: session.user, session };
    }
  }
  throw new ApiError('unauthorized', 'session expired or unknown; log in again');
}

/** Refuses a state-changing browser call that did not come from the console's own page. */
export function checkSameOrigin(actor: Actor, h: GuardHeaders): void {
  if (actor.kind === 'operator') return;
  if (h.origin !== '' && !sameHost(h.origin, h.host)) {
    throw new ApiError('forbidden', `cross-site request refused (Origin ${h.origin.slice(0, 100)} is not this console)`);
  }
  if (h.secFetchSite === 'cross-site' || h.secFetchSite === 'same-site') {
    throw new ApiError('forbidden', 'cross-site request refused (Sec-Fetch-Site)');
  }
  if (actor.kind === 'user' && !csrfMatches(actor.session, h.csrfToken)) {
    throw new ApiError('forbidden', 'missing or wrong X-CSRF-Token header (the token is returned at login and by GET /console/api/session)');
  }
}

function sameHost(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.toLowerCase();
  } catch {
    return false;
  }
}
