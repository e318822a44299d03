// The interface documents: valid OpenAPI 3.1 and AsyncAPI 3.0 (checked against the published
// meta-schemas), served at /v1/openapi.json and /v1/asyncapi.json exactly as kept in docs/api/, and
// covering every REST route the service registers (and no route it does not serve). That every
// answer and stream message matches them is enforced by the test clients (test/support/api-contract.ts).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayContext } from '../../src/gateway/context.js';
import { restRoutes } from '../../src/gateway/rest/routes.js';
import { endpointOf } from '../../src/gateway/rest/route.js';
import { send } from '../rest/support/client.js';
import { ASYNCAPI, OPENAPI } from '../support/api-contract.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

/** `METHOD /path/{param}` of every documented operation. */
const documented = (): string[] => Object.entries(OPENAPI['paths'] as Record<string, Record<string, unknown>>)
  .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));

describe('docs/api documents', () => {
  it('openapi.json is valid OpenAPI 3.1', async () => {
    expect(OPENAPI['openapi']).toBe('3.1.0');
    const result = await new Validator().validate(OPENAPI);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('asyncapi.json is valid AsyncAPI 3.0', () => {
    expect(ASYNCAPI['asyncapi']).toBe('3.0.0');
    const schema = createRequire(import.meta.url)('@asyncapi/specs/schemas/3.0.0.json') as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    formats.default(ajv);
    // The AsyncAPI schema embeds the draft-07 meta-schema, which ajv already holds.
    ajv.removeSchema('http://json-schema.org/draft-07/schema');
    const validate = ajv.compile(schema);
    expect(validate(ASYNCAPI), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('are served at /v1/openapi.json and /v1/asyncapi.json without credentials, as kept in the repository', async () => {
    for (const [path, doc] of [['/v1/openapi.json', OPENAPI], ['/v1/asyncapi.json', ASYNCAPI]] as const) {
      const res = await send(server.httpPort, 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual(doc);
    }
  });

  it('document every signed REST route, and each documented operation is served', async () => {
    const ctx = { symbols: new Map(), clock: { nowMs: () => 0 } } as unknown as GatewayContext;
    const routes = restRoutes(ctx).map(endpointOf);
    expect(documented()).toEqual(expect.arrayContaining(routes));
    for (const op of documented()) {
      const [method, template] = op.split(' ') as [string, string];
      const res = await send(server.httpPort, method, template.replace(/\{[^}]+\}/g, '1'), method === 'POST' ? { body: '{}' } : {});
      // Answered by the operation's own route: never the catch-all's "no route".
      expect(res.body?.error?.message ?? '', op).not.toMatch(/^no route/);
    }
  });
});
