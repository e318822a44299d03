// The OpenAPI 3.1 document of the REST API and the signal webhook, built from the schemas the
// service's answers are tested against. Served at GET /v1/openapi.json; docs/api/openapi.json is
// the same document, kept in the repository (a test fails when the two differ).
import * as S from './schemas.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json): Json => ({ 'application/json': { schema } });

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'bad_request: malformed JSON, a missing or bad field, an unknown query parameter',
  401: 'unauthorized: missing, expired, paused or revoked key, bad signature, timestamp more than 5 s off, replay',
  403: 'forbidden: the key lacks the scope, or the address is not whitelisted',
  404: 'not_found: the account, order, position or webhook does not exist or is not visible to the key',
  409: 'duplicate_client_id: the client_id already created an order (returned as `order`)',
  422: 'invalid_order: volume, price, SL/TP or margin validation failed',
  423: 'kill_switch_active: trading is stopped by a kill switch, or the webhook is paused',
  429: 'rate_limited: a limit was exceeded; Retry-After says when to retry',
  503: 'market_closed: the symbol\'s session is closed; unavailable: the account\'s shard cannot make orders durable now (its journal\'s disk is full or failing)',
};

function ok(description: string, schema: Json): Json {
  return { description, headers: RATE_HEADERS, content: json(schema) };
}

function errors(...statuses: number[]): Json {
  const out: Json = {};
  for (const s of [...statuses, 429]) {
    const headers = s === 429 ? { ...RATE_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : RATE_HEADERS;
    out[String(s)] = { description: ERROR_TEXT[s], headers, content: json(ref('Error')) };
  }
  out['default'] = { description: 'Any other error, in the same shape (500 internal_error is a bug)', content: json(ref('Error')) };
  return out;
}

const query = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'query', required: false, description, schema });
const path = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({ name, in: 'path', required: true, description, schema });
const LIMIT = query('limit', 'Page size, 1 to 1000 (default 500)', { type: 'integer', minimum: 1, maximum: 1000 });
const CURSOR = query('cursor', 'next_cursor of the previous page');

const SIGNED = [{ key: [], timestamp: [], signature: [] }];

function op(summary: string, scope: 'read' | 'trade', extra: Json): Json {
  return { summary, description: `Scope \`${scope}\`.`, security: SIGNED, ...extra };
}

export function openApiDocument(version: string): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Trading Access Service REST API and signal webhooks',
      version,
      description: 'Signed JSON REST API (v1) and inbound signal webhooks. Every /v1 response carries the X-RateLimit headers. '
        + 'Signature: hex(HMAC-SHA256(secret, timestamp + method + path-with-query + body)). The WebSocket stream is described by /v1/asyncapi.json.',
    },
    servers: [{ url: 'http://127.0.0.1:8080', description: 'Default listener (config http.host, http.port)' }],
    paths: {
      '/health': {
        get: {
          summary: 'Service health: 200 once every listener and shard is up', security: [],
          responses: {
            200: { description: 'Up: ok, or degraded while a shard\'s checkpoints fail (orders are still accepted and durable)', content: json(ref('Health')) },
            503: { description: 'Starting, or a shard\'s journal cannot make orders durable (journal_unavailable)', content: json(ref('Health')) },
          },
        },
      },
      '/v1/time': {
        get: {
          summary: 'Server time, for clock synchronisation (signatures are refused more than 5 s off)', security: [],
          responses: { 200: ok('The server\'s clock', ref('ServerTime')), ...errors() },
        },
      },
      '/v1/openapi.json': {
        get: { summary: 'This document', security: [], responses: { 200: ok('OpenAPI 3.1', { type: 'object' }), ...errors() } },
      },
      '/v1/asyncapi.json': {
        get: { summary: 'The AsyncAPI 3.0 document of the WebSocket stream', security: [], responses: { 200: ok('AsyncAPI 3.0', { type: 'object' }), ...errors() } },
      },
      '/v1/accounts': {
        get: op('The key\'s account with live balance, equity and margin', 'read', {
          parameters: [query('type', 'live or demo', { type: 'string', enum: ['live', 'demo'] }), LIMIT, CURSOR],
          responses: { 200: ok('Accounts by login', ref('AccountList')), ...errors(400, 401, 403) },
        }),
      },
      '/v1/accounts/{login}': {
        get: op('Account detail', 'read', {
          parameters: [path('login', 'The key\'s account login')],
          responses: { 200: ok('The account', ref('AccountDetail')), ...errors(400, 401, 403, 404) },
        }),
      },
      '/v1/orders': {
        get: op('The account\'s orders (pending and settled), or the one order of a client_id', 'read', {
          description: 'Scope `read`. Ordered by id ascending. Filters combine; `client_id` cannot be combined with others and answers the order itself.',
          parameters: [
            query('status', 'Only orders in this status', S.OrderStatusSchema),
            query('symbol', 'Only orders on this symbol'),
            query('since', 'Only orders created at or after: Unix ms or ISO 8601 with a zone'),
            LIMIT, CURSOR,
            query('client_id', 'The order this client_id created (404 when none)', { type: 'string', minLength: 1, maxLength: 64 }),
          ],
          responses: { 200: ok('A page of orders, or one order for client_id', { oneOf: [ref('OrderList'), ref('Order')] }), ...errors(400, 401, 403, 404) },
        }),
        post: op('Place a market or pending order', 'trade', {
          requestBody: { required: true, content: json(ref('OrderRequest')) },
          responses: { 200: ok('The order: filled (market) or pending (limit, stop)', ref('Order')), ...errors(400, 401, 403, 404, 409, 422, 423, 503) },
        }),
        delete: op('Cancel-all: every pending order of the account, or of one symbol', 'trade', {
          description: 'Scope `trade`. One command to the account\'s shard, charged to the trade limit once; the answer lists every order it cancelled.',
          parameters: [query('login', 'The key\'s account (default); any other is 404'), query('symbol', 'Only orders on this symbol')],
          responses: { 200: ok('The cancelled orders', ref('CancelAllResult')), ...errors(400, 401, 403, 404, 423) },
        }),
      },
      '/v1/orders/{id}': {
        get: op('One order of the account', 'read', {
          parameters: [path('id', 'Order id')],
          responses: { 200: ok('The order', ref('Order')), ...errors(400, 401, 403, 404) },
        }),
        delete: op('Cancel a pending order', 'trade', {
          parameters: [path('id', 'Order id')],
          responses: { 200: ok('The cancelled order', ref('Order')), ...errors(400, 401, 403, 404, 422, 423) },
        }),
        patch: op('Amend a pending order: price, volume, sl, tp', 'trade', {
          description: 'Scope `trade`. Fields left out keep their value; sl or tp null removes it. Validated as POST /v1/orders; '
            + 'a filled or cancelled order is 422 with field id, a price on a market order 422 with field price.',
          parameters: [path('id', 'Order id')],
          requestBody: { required: true, content: json(ref('OrderAmendRequest')) },
          responses: { 200: ok('The order as amended, with what changed', ref('Order')), ...errors(400, 401, 403, 404, 422, 423, 503) },
        }),
      },
      '/v1/positions': {
        get: op('Open positions with floating profit', 'read', {
          parameters: [query('login', 'The key\'s account'), query('symbol', 'Only this symbol'), LIMIT, CURSOR],
          responses: { 200: ok('Positions by ticket', ref('PositionList')), ...errors(400, 401, 403, 404) },
        }),
        delete: op('Close-all: every open position of the account, or of one symbol', 'trade', {
          description: 'Scope `trade`. One command to the account\'s shard, charged to the trade limit once; the answer lists each position, closed or failed with its error (200 when some failed).',
          parameters: [query('login', 'The key\'s account (default); any other is 404'), query('symbol', 'Only positions on this symbol')],
          responses: { 200: ok('Each position\'s result', ref('CloseAllResult')), ...errors(400, 401, 403, 404, 423) },
        }),
      },
      '/v1/positions/{ticket}': {
        delete: op('Close a position fully, or partially with volume', 'trade', {
          parameters: [path('ticket', 'Position ticket', { type: 'integer' }), query('volume', 'Lots to close (partial close)', { type: 'number' })],
          responses: { 200: ok('The close', ref('CloseResult')), ...errors(400, 401, 403, 404, 422, 423, 503) },
        }),
        patch: op('Amend an open position\'s SL and TP', 'trade', {
          description: 'Scope `trade`. Left out keeps; null removes. SL must be on the losing and TP on the winning side of the position\'s close price now (422 naming the field).',
          parameters: [path('ticket', 'Position ticket', { type: 'integer' })],
          requestBody: { required: true, content: json(ref('PositionAmendRequest')) },
          responses: { 200: ok('The position as amended, with what changed', ref('Position')), ...errors(400, 401, 403, 404, 422, 423, 503) },
        }),
      },
      '/v1/cancel-all-after': {
        post: op('Dead-man\'s switch: cancel the key\'s orders unless called again within timeout_ms', 'trade', {
          description: 'Scope `trade`. Each call re-arms it from now; timeout_ms 0 disarms. When it fires, the account\'s pending orders placed through this key are '
            + 'cancelled (reason dead_man) and, with close_positions, its API positions closed. Journaled: it survives a restart, and a deadline passed while '
            + 'the service was down fires at start. Charged to the trade limit.',
          requestBody: { required: true, content: json(ref('DeadManRequest')) },
          responses: { 200: ok('The switch as it stands', ref('DeadMan')), ...errors(400, 401, 403, 404) },
        }),
      },
      '/v1/symbols': {
        get: op('Tradable symbols: digits, contract size, volume range, session and whether it is open now', 'read', {
          parameters: [LIMIT, CURSOR],
          responses: { 200: ok('Symbols by name', ref('SymbolList')), ...errors(400, 401, 403) },
        }),
      },
      '/v1/signal/{webhook_id}': {
        post: {
          summary: 'A trading signal, fanned out to every target account of the webhook',
          description: 'No API key: the webhook secret is the credential, in the body (`secret`) or as X-Svc-Signature = hex(HMAC-SHA256(secret, raw body)). '
            + 'The body is parsed as JSON whatever the Content-Type. Limit: 5 signals per 10 s per webhook, burst 10; an unknown webhook is charged to the caller address.',
          security: [{}, { signalSignature: [] }],
          parameters: [path('webhook_id', 'The webhook')],
          requestBody: { required: true, content: { 'application/json': { schema: ref('SignalRequest') }, 'text/plain': { schema: { type: 'string' } } } },
          responses: { 200: ok('Accepted (or a duplicate comment\'s original result)', ref('SignalResult')), ...errors(400, 401, 403, 404, 423) },
        },
      },
    },
    components: {
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-SVC-KEY', description: 'API key id' },
        timestamp: { type: 'apiKey', in: 'header', name: 'X-SVC-TIMESTAMP', description: 'Unix ms; refused more than 5000 ms from server time (GET /v1/time)' },
        signature: { type: 'apiKey', in: 'header', name: 'X-SVC-SIGNATURE', description: 'hex(HMAC-SHA256(secret, timestamp + method + path-with-query + body))' },
        signalSignature: { type: 'apiKey', in: 'header', name: 'X-Svc-Signature', description: 'hex(HMAC-SHA256(webhook secret, raw body))' },
      },
      headers: {
        'X-RateLimit-Limit': { required: true, description: 'Requests per window of the bucket that applied', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { required: true, description: 'Whole tokens left', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { required: true, description: 'Unix ms when the bucket is full again', schema: { type: 'integer' } },
        'Retry-After': { required: true, description: 'Whole seconds, at least 1', schema: { type: 'integer', minimum: 1 } },
      },
      schemas: {
        Error: S.ErrorSchema,
        Order: S.OrderSchema,
        OrderList: S.OrderListSchema,
        OrderRequest: S.OrderRequestSchema,
        Position: S.PositionSchema,
        PositionList: S.PositionListSchema,
        CloseResult: S.CloseResultSchema,
        CancelAllResult: S.CancelAllResultSchema,
        CloseAllResult: S.CloseAllResultSchema,
        OrderAmendRequest: S.OrderAmendRequestSchema,
        PositionAmendRequest: S.PositionAmendRequestSchema,
        DeadManRequest: S.DeadManRequestSchema,
        DeadMan: S.DeadManSchema,
        AccountList: S.AccountListSchema,
        AccountDetail: S.AccountDetailSchema,
        Symbol: S.SymbolSchema,
        SymbolList: S.SymbolListSchema,
        ServerTime: S.ServerTimeSchema,
        Health: S.HealthSchema,
        SignalRequest: S.SignalRequestSchema,
        SignalResult: S.SignalResultSchema,
      },
    },
  };
}
