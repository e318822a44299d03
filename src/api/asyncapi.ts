// The AsyncAPI 3.0 document of the WebSocket stream, from the service's point of view: it receives
// the client's operations and sends its messages, each a JSON object with `channel`, several per
// frame separated by '\n'. Served at GET /v1/asyncapi.json; docs/api/asyncapi.json is the same.
import * as S from './schemas.js';

type Json = Record<string, unknown>;

/** Message name → payload schema and what it is. */
const CLIENT_OPS: Readonly<Record<string, readonly [Json, string]>> = {
  subscribe: [S.SubscribeOpSchema, 'Subscribe to quotes of symbols, and to the key\'s account\'s orders, positions and account state. since_seq replays journaled events first.'],
  unsubscribe: [S.UnsubscribeOpSchema, 'Drop channels (and quote symbols; none named = all).'],
  ping: [S.PingOpSchema, 'Answered with pong.'],
  cancel_all_after: [S.CancelAllAfterOpSchema, 'Arms (timeout_ms > 0) or disarms (0) the key\'s dead-man\'s switch, as POST /v1/cancel-all-after; needs the trade scope.'],
  cancel_on_disconnect: [S.CancelOnDisconnectOpSchema, 'While enabled, this connection dropping (not a server shutdown) cancels the key\'s pending orders at once; needs the trade scope.'],
};

const SERVER_MESSAGES: Readonly<Record<string, readonly [Json, string]>> = {
  ack: [S.AckMessageSchema, 'Acknowledges subscribe (channel subscribed) or unsubscribe (channel unsubscribed).'],
  error: [S.ErrorMessageSchema, 'A refused operation; the connection stays open.'],
  pong: [S.PongMessageSchema, 'Answer to ping.'],
  heartbeat: [S.HeartbeatMessageSchema, 'Every 5 seconds.'],
  quote: [S.QuoteMessageSchema, 'A tick of a subscribed symbol; conflated to the latest per symbol for slow consumers.'],
  order: [S.OrderMessageSchema, 'An order event of the subscribed account (never dropped).'],
  position: [S.PositionMessageSchema, 'A position event of the subscribed account (never dropped; reason on SL/TP, kill-switch, webhook, dead-man and stop-out closes), '
    + 'or a live P&L update (live: true, no seq, at most every 100 ms per position, conflated for slow connections).'],
  account: [S.AccountMessageSchema, 'Account state on change, at most every 100 ms; margin_call below the group\'s margin-call level.'],
  cancel_all_after: [S.CancelAllAfterMessageSchema, 'Answer to cancel_all_after: the switch as it stands.'],
  cancel_on_disconnect: [S.CancelOnDisconnectMessageSchema, 'Answer to cancel_on_disconnect.'],
  snapshot: [S.SnapshotMessageSchema, 'A page of the snapshot a plain subscribe to positions or orders starts with: open positions, then pending orders; paced by the connection\'s buffer, each page after the first costs a message-rate token.'],
  snapshotEnd: [S.SnapshotEndMessageSchema, 'After the last snapshot page: the same seq, the number of pages and of records; the account\'s events follow.'],
};

const pascal = (name: string): string => name[0]!.toUpperCase() + name.slice(1);

function messages(of: Readonly<Record<string, readonly [Json, string]>>, suffix: string): Json {
  return Object.fromEntries(Object.entries(of).map(([name, [, summary]]) => [name, {
    name, summary, contentType: 'application/json', payload: { $ref: `#/components/schemas/${pascal(name)}${suffix}` },
  }]));
}

function schemas(of: Readonly<Record<string, readonly [Json, string]>>, suffix: string): Json {
  return Object.fromEntries(Object.entries(of).map(([name, [schema]]) => [`${pascal(name)}${suffix}`, schema]));
}

const refs = (names: readonly string[], base: string): Json[] => names.map((n) => ({ $ref: `${base}/${n}` }));

export function asyncApiDocument(version: string): Json {
  const all = [...Object.keys(CLIENT_OPS), ...Object.keys(SERVER_MESSAGES)];
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Trading Access Service stream',
      version,
      description: 'WebSocket stream at /v1 on the HTTP listener. Connect with key, ts and sig in the query string: '
        + 'sig = hex(HMAC-SHA256(secret, ts + "GET" + "/v1")). A refused connection is answered before the upgrade with the REST error body. '
        + 'Frames hold one or more JSON objects separated by "\\n"; every server message has `channel`.',
    },
    defaultContentType: 'application/json',
    servers: {
      local: {
        host: '127.0.0.1:8080', protocol: 'ws', pathname: '/v1', description: 'Default listener (wss when http.tls is configured)',
        security: refs(['key', 'ts', 'sig'], '#/components/securitySchemes'),
      },
    },
    channels: {
      stream: {
        address: '/v1',
        messages: Object.fromEntries(all.map((n) => [n, { $ref: `#/components/messages/${n}` }])),
        bindings: {
          ws: {
            bindingVersion: '0.1.0',
            query: {
              type: 'object', required: ['key', 'ts', 'sig'],
              properties: { key: { type: 'string' }, ts: { type: 'string', description: 'Unix ms' }, sig: { type: 'string' } },
            },
          },
        },
      },
    },
    operations: {
      clientOperations: {
        action: 'receive', channel: { $ref: '#/channels/stream' }, summary: 'Operations the client sends',
        messages: refs(Object.keys(CLIENT_OPS), '#/channels/stream/messages'),
      },
      serverMessages: {
        action: 'send', channel: { $ref: '#/channels/stream' }, summary: 'Messages the service sends',
        messages: refs(Object.keys(SERVER_MESSAGES), '#/channels/stream/messages'),
      },
    },
    components: {
      securitySchemes: {
        key: { type: 'httpApiKey', name: 'key', in: 'query', description: 'API key id' },
        ts: { type: 'httpApiKey', name: 'ts', in: 'query', description: 'Unix ms, within 5000 ms of server time' },
        sig: { type: 'httpApiKey', name: 'sig', in: 'query', description: 'hex(HMAC-SHA256(secret, ts + "GET" + "/v1"))' },
      },
      messages: { ...messages(CLIENT_OPS, 'Op'), ...messages(SERVER_MESSAGES, 'Message') },
      schemas: { ...schemas(CLIENT_OPS, 'Op'), ...schemas(SERVER_MESSAGES, 'Message') },
    },
  };
}
