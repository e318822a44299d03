// Deep and big input at every JSON parser of the real server, as an adversarial client sends it:
// arrays and objects nested up to 30,000 deep and bodies up to 10 MB, at POST /v1/orders, the
// console's operator route, a signal webhook and a stream connection. http.max_body_bytes is
// raised to 16 MiB here so that REST and the console parse these bodies instead of refusing them
// for their size (the default, 64 KiB, refuses them unread). Every answer is the documented one,
// nothing is placed, and a bystander is served meanwhile and after.
import fc from 'fast-check';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { streamUrl, TestStream } from '../stream/support/stream-client.js';
import { operator, RestClient, send, type Answer } from './support/client.js';
import { expectError } from './support/expect.js';
import { KEYS, MAIN_LOGIN, OTHER_LOGIN, REST_CONFIG, restSeed } from './support/seed.js';

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const HOOK = { id: 'wh-big', secret: 'wh-big-secret-0123456789' } as const;

let server: RunningServer;
let main: RestClient;

beforeAll(async () => {
  const seed = restSeed(Date.now());
  seed['webhooks'] = [{ id: HOOK.id, user: 'u1', secret: HOOK.secret, symbols: ['BTCUSD'], targets: [{ login: OTHER_LOGIN, sizing: { type: 'fixed', lots: 0.01 } }] }];
  server = await startServer({ seed, config: { ...REST_CONFIG, http: { max_body_bytes: MAX_BODY_BYTES } } });
  main = new RestClient(server.httpPort, KEYS.main);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

type Shape = 'array' | 'object' | 'order';

/** JSON nested `depth` deep: bare arrays, objects, or an order whose client_id holds the nesting. */
function nested(shape: Shape, depth: number): string {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth);
  const inner = '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
  if (shape === 'object') return inner;
  return `{"login":"${MAIN_LOGIN}","symbol":"BTCUSD","side":"buy","type":"market","volume":0.01,"client_id":${inner}}`;
}

/** Bodies up to 10 MB: a valid order padded with one huge field, one huge string, raw garbage. */
function big(kind: 'padded' | 'string' | 'garbage', bytes: number): string {
  const fill = 'x'.repeat(Math.max(0, bytes - 120));
  switch (kind) {
    case 'padded': return `{"login":"${MAIN_LOGIN}","symbol":"BTCUSD","side":"buy","type":"market","volume":0.01,"client_id":"${fill}"}`;
    case 'string': return `"${fill}"`;
    case 'garbage': return `{${fill}`;
  }
}

const input = fc.oneof(
  fc.tuple(fc.constantFrom<Shape>('array', 'object', 'order'), fc.oneof(fc.integer({ min: 1, max: 30_000 }), fc.constant(30_000)))
    .map(([shape, depth]) => ({ what: `${shape} nested ${depth}`, text: nested(shape, depth) })),
  fc.tuple(fc.constantFrom('padded', 'string', 'garbage') as fc.Arbitrary<'padded' | 'string' | 'garbage'>, fc.integer({ min: 1024, max: 10_000_000 }))
    .map(([kind, bytes]) => ({ what: `${kind} of ${bytes} bytes`, text: big(kind, bytes) })),
);

async function positionCount(): Promise<number> {
  const res = await main.get('/v1/positions');
  expect(res.status).toBe(200);
  return res.body.data.length;
}

/** A bystander's read, answered while the hostile input goes on. */
async function bystanderServed(): Promise<void> {
  expect((await new RestClient(server.httpPort, KEYS.other).get(`/v1/accounts/${OTHER_LOGIN}`)).status).toBe(200);
}

describe('deep and big JSON', () => {
  it('at POST /v1/orders and the console\'s operator route: 400, nothing placed', async () => {
    const before = await positionCount();
    const limits = new Map<string, number>();
    await fc.assert(fc.asyncProperty(input, async ({ what, text }) => {
      const [rest, viaConsole] = await Promise.all([
        main.post('/v1/orders', text),
        send(server.consolePort, 'POST', '/console/api/orders', { body: text, headers: { authorization: `Bearer ${server.adminToken}` } }),
        bystanderServed(),
      ]);
      // Signed calls of one account: past its trade burst the answer is 429, also documented.
      limits.set(String(rest.status), (limits.get(String(rest.status)) ?? 0) + 1);
      if (rest.status === 429) expectError(rest, 'rate_limited');
      else expectError(rest, 'bad_request');
      expect(viaConsole.status, `${what}: ${viaConsole.text.slice(0, 200)}`).toBe(400);
      expect(viaConsole.body.error.name).toBe('bad_request');
    }), { numRuns: 40 });
    expect(limits.get('400')).toBeGreaterThan(10);
    expect(await positionCount()).toBe(before);
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  }, 120_000);

  it('at the console\'s other parsers (public login, webhook and key creation): 400 naming the field', async () => {
    const deep = nested('array', 30_000);
    const cases: [string, string, string][] = [
      ['/console/api/login', `{"user":${deep},"password":"x","totp":"123456"}`, 'user'],
      ['/console/api/webhooks', `{"id":"wh-deep","user":"u1","secret":"wh-deep-secret-0123456789","symbols":${deep},"targets":[]}`, 'symbols'],
      ['/console/api/keys', `{"name":${deep},"login":"${MAIN_LOGIN}","scopes":["read"]}`, 'name'],
    ];
    for (const [route, body, field] of cases) {
      const res = await send(server.consolePort, 'POST', route, { body, headers: { authorization: `Bearer ${server.adminToken}` } });
      expect(res.status, `${route}: ${res.text.slice(0, 300)}`).toBe(400);
      expect(res.body.error.name).toBe('bad_request');
      expect(res.body.error.message).toContain(field);
    }
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('at a signal webhook: 400 within its 4 KiB, past it too; nothing traded', async () => {
    const before = (await new RestClient(server.httpPort, KEYS.other).get('/v1/positions')).body.data.length;
    const answers: Answer[] = [];
    for (const depth of [1000, 2000, 30_000]) {
      for (const shape of ['array', 'object'] as const) answers.push(await send(server.httpPort, 'POST', `/v1/signal/${HOOK.id}`, { body: nested(shape, depth) }));
      const signal = `{"secret":"${HOOK.secret}","action":"buy","symbol":"BTCUSD","comment":${nested('object', depth)}}`;
      answers.push(await send(server.httpPort, 'POST', `/v1/signal/${HOOK.id}`, { body: signal }));
    }
    answers.push(await send(server.httpPort, 'POST', `/v1/signal/${HOOK.id}`, { body: big('padded', 10_000_000) }));
    for (const res of answers) {
      expect(res.status, res.text.slice(0, 200)).toBe(400);
      expect(res.body.error.name).toBe('bad_request');
    }
    expect((await new RestClient(server.httpPort, KEYS.other).get('/v1/positions')).body.data.length).toBe(before);
  });

  it('on a stream connection: an error for deep ops within 16 KiB, a close past it, the others served', async () => {
    const bystander = await TestStream.connect(server.httpPort, KEYS.other);
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    for (const text of [nested('array', 8000), `{"op":"ping","id":${nested('array', 8000)}}`, `{"op":"subscribe","id":1,"channels":${nested('array', 8000)}}`]) {
      s.send(text);
      expect(await s.take((m) => m.channel === 'error')).toMatchObject({ name: 'bad_request' });
    }
    expect((await s.request({ op: 'ping', id: 1 })).channel).toBe('pong');
    s.send(nested('object', 30_000));
    expect((await s.closed).code).toBe(1009);
    // 10 MB, past the socket layer's 1 MiB: dropped unread.
    const huge = await TestStream.open(streamUrl(server.httpPort, KEYS.main));
    huge.send(big('padded', 10_000_000));
    expect((await huge.closed).code).toBeGreaterThanOrEqual(1006);
    expect((await bystander.request({ op: 'ping', id: 2 })).channel).toBe('pong');
    await bystander.close();
    expect((await fetch(`${server.http}/health`)).status).toBe(200);
    expect((await operator(server.consolePort, server.adminToken, 'GET', `/console/api/accounts/${MAIN_LOGIN}`)).status).toBeLessThan(500);
  });
});
