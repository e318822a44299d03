// The documents in docs/api/ as a contract the tests' clients enforce: every REST and webhook
// answer is validated (ajv, JSON Schema 2020-12) against the OpenAPI operation it answers, with
// its documented required headers, and every stream message against the AsyncAPI payload of its
// `channel`. A mismatch throws, failing the test that made the call.
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the documents' JSON

export const OPENAPI: Json = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/api/openapi.json'), 'utf8'));
export const ASYNCAPI: Json = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs/api/asyncapi.json'), 'utf8'));

const OPENAPI_ID = 'tas-openapi';
const ASYNCAPI_ID = 'tas-asyncapi';

// ajv-formats is CommonJS: from ESM its plugin is the `default` member of what the import gives.
const addFormats = formats.default;
// Not strict: the documents carry OpenAPI/AsyncAPI members beside the schemas they hold.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(OPENAPI, OPENAPI_ID);
ajv.addSchema(ASYNCAPI, ASYNCAPI_ID);

const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const validators = new Map<string, ValidateFunction>();

function validatorAt(docId: string, at: string): ValidateFunction {
  const ref = `${docId}#/${at}`;
  let v = validators.get(ref);
  if (!v) { v = ajv.compile({ $ref: ref }); validators.set(ref, v); }
  return v;
}

interface Operation { readonly template: string; readonly method: string; readonly op: Json }

/** Documented operations; static paths before templated ones, so /v1/orders/x never shadows a static route. */
const OPERATIONS: readonly (Operation & { readonly pattern: RegExp; readonly params: number })[] = Object.entries(OPENAPI['paths'] as Json)
  .flatMap(([template, item]) => Object.entries(item as Json).map(([method, op]) => ({
    template, method: method.toUpperCase(), op: op as Json,
    pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    params: (template.match(/\{/g) ?? []).length,
  })))
  .sort((a, b) => a.params - b.params);

export class ContractError extends Error {}

function check(v: ValidateFunction, value: unknown, what: string): void {
  if (!v(value)) throw new ContractError(`${what} does not match the documented schema: ${ajv.errorsText(v.errors, { separator: '; ' })}\n${JSON.stringify(value).slice(0, 2000)}`);
}

/** Paths the OpenAPI document describes: the HTTP listener's REST API, webhooks and /health. */
export const isDocumentedPath = (urlPath: string): boolean => urlPath === '/health' || urlPath.startsWith('/v1/') || urlPath === '/v1';

/**
 * Validates one answer of the HTTP listener. A path and method no operation documents must be an
 * error body (the catch-all 404 or its 429).
 */
export function checkHttpAnswer(method: string, url: string, status: number, headers: http.IncomingHttpHeaders, text: string): void {
  const urlPath = url.split('?')[0]!;
  const what = `${method} ${urlPath} → ${status}`;
  const found = OPERATIONS.find((o) => o.method === method && o.pattern.test(urlPath));
  let body: unknown;
  try { body = JSON.parse(text); } catch { throw new ContractError(`${what}: the body is not JSON: ${text.slice(0, 200)}`); }
  if (!found) {
    check(validatorAt(OPENAPI_ID, pointer('components', 'schemas', 'Error')), body, what);
    return;
  }
  const responses = found.op['responses'] as Json;
  const code = String(status) in responses ? String(status) : 'default';
  const response = responses[code] as Json | undefined;
  if (!response) throw new ContractError(`${what}: status not documented for ${found.method} ${found.template}`);
  check(validatorAt(OPENAPI_ID, pointer('paths', found.template, found.method.toLowerCase(), 'responses', code, 'content', 'application/json', 'schema')), body, what);
  for (const [name, spec] of Object.entries((response['headers'] ?? {}) as Json)) {
    const header = (spec as Json)['$ref'] ? OPENAPI['components']['headers'][String((spec as Json)['$ref']).split('/').pop()!] : spec;
    if (header.required && headers[name.toLowerCase()] === undefined) throw new ContractError(`${what}: the documented header ${name} is missing`);
  }
}

/** Server message schemas by the value of their `channel` member. */
const BY_CHANNEL = new Map<string, string>();
for (const ref of ASYNCAPI['operations']['serverMessages']['messages'] as { $ref: string }[]) {
  const name = ref.$ref.split('/').pop()!;
  const schemaName = String(ASYNCAPI['components']['messages'][name]['payload']['$ref']).split('/').pop()!;
  const channel = ASYNCAPI['components']['schemas'][schemaName]['properties']['channel'];
  for (const value of (channel.enum ?? [channel.const]) as string[]) BY_CHANNEL.set(value, schemaName);
}

/** Validates one stream message against the AsyncAPI payload of its channel. */
export function checkStreamMessage(message: unknown): void {
  const channel = (message as { channel?: unknown } | null)?.channel;
  const schemaName = typeof channel === 'string' ? BY_CHANNEL.get(channel) : undefined;
  if (schemaName === undefined) throw new ContractError(`stream message with an undocumented channel: ${JSON.stringify(message).slice(0, 500)}`);
  check(validatorAt(ASYNCAPI_ID, pointer('components', 'schemas', schemaName)), message, `stream ${channel} message`);
}
