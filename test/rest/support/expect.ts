// Assertions every REST answer must pass: the documented error shape with request_id (also the
// x-request-id header) and the three X-RateLimit headers, errors included.
import { expect } from 'vitest';
import type { Answer } from './client.js';

const STATUS_OF: Readonly<Record<string, number>> = {
  bad_request: 400, unauthorized: 401, forbidden: 403, not_found: 404, duplicate_client_id: 409,
  invalid_order: 422, kill_switch_active: 423, rate_limited: 429, market_closed: 503,
};

export function expectRateLimitHeaders(res: Answer): void {
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(res.headers[h], `${h} on ${res.status} ${res.text}`).toMatch(/^\d+$/);
  }
  expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(1.6e12);
  expect(res.headers['x-request-id']).toMatch(/^\S+$/);
}

/** `field`: the offending field; null when the error must name none; undefined to leave it unchecked. */
export function expectError(res: Answer, name: string, field?: string | null): void {
  const status = STATUS_OF[name];
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('application/json');
  expect(res.body.error).toMatchObject({ code: status, name, request_id: res.headers['x-request-id'] });
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  if (field === null) expect(res.body.error.field).toBeUndefined();
  else if (field !== undefined) expect(res.body.error.field).toBe(field);
  expectRateLimitHeaders(res);
  if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

/** A 200 answer (the body is shown when it is not), returned for chaining. */
export function expectOk(res: Answer): Answer {
  expect(res.status, res.text).toBe(200);
  return res;
}
