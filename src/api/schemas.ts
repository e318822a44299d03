// JSON Schemas (2020-12) of every body the service sends and takes, written once as constants: the
// OpenAPI and AsyncAPI documents are built from them (openapi.ts, asyncapi.ts), the SDK's types are
// inferred from them (json-schema-to-ts), and the tests validate every answer against them.
// Response objects list every member (additionalProperties false), so a new field cannot appear
// on the wire without appearing here.

const text = { type: 'string' } as const;
const decimal = { type: 'number' } as const;
const nullableDecimal = { type: ['number', 'null'] } as const;
const unixMs = { type: 'integer', minimum: 0, description: 'Unix time in milliseconds' } as const;
const isoTime = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds' } as const;
const cursor = { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last page.' } as const;

/** A list page (DECISIONS: `limit` and `cursor`; `next_cursor` null at the end). */
const pageOf = <const Item>(items: Item) => ({
  type: 'object', additionalProperties: false, required: ['data', 'next_cursor'],
  properties: { data: { type: 'array', items }, next_cursor: cursor },
}) as const;

export const SideSchema = { type: 'string', enum: ['buy', 'sell'] } as const;
export const SourceSchema = { type: 'string', enum: ['manual', 'api', 'webhook', 'strategy', 'copy'] } as const;
export const OrderStatusSchema = { type: 'string', enum: ['pending', 'filled', 'cancelled', 'rejected'] } as const;
export const ErrorNameSchema = {
  type: 'string',
  enum: ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'duplicate_client_id', 'invalid_order', 'kill_switch_active', 'rate_limited', 'market_closed', 'unavailable', 'internal_error'],
} as const;

/** What an amend changed: prices in the symbol's decimals, volume in lots; null: no SL/TP. */
export const AmendedSchema = {
  type: 'array',
  description: 'Present on an amend (PATCH, FIX G): each field it changed',
  items: {
    type: 'object', additionalProperties: false, required: ['field', 'from', 'to'],
    properties: { field: { type: 'string', enum: ['price', 'volume', 'sl', 'tp'] }, from: nullableDecimal, to: nullableDecimal },
  },
} as const;

export const OrderSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'login', 'symbol', 'side', 'type', 'status', 'price', 'volume', 'ticket', 'source', 'sl', 'tp', 'created_at', 'filled_at'],
  properties: {
    id: { ...text, description: 'Order id (decimal digits), used in /v1/orders/{id}' },
    login: text,
    symbol: text,
    side: SideSchema,
    type: { type: 'string', enum: ['market', 'limit', 'stop'] },
    status: OrderStatusSchema,
    price: { ...decimal, description: 'Limit/stop price while pending; the fill price once filled' },
    volume: { ...decimal, description: 'Lots' },
    ticket: { type: ['integer', 'null'], description: 'Ticket of the position the fill opened; null until filled' },
    source: SourceSchema,
    key_id: { ...text, description: 'The API key that placed it (source api)' },
    client_id: { ...text, maxLength: 64 },
    sl: nullableDecimal,
    tp: nullableDecimal,
    created_at: isoTime,
    filled_at: { type: ['string', 'null'], format: 'date-time' },
    reason: { ...text, description: 'Why the platform cancelled or rejected it: kill_switch, dead_man, or the refusal of a triggered order' },
    amended: AmendedSchema,
  },
} as const;

export const OrderListSchema = pageOf(OrderSchema);

export const PositionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ticket', 'login', 'symbol', 'side', 'volume', 'open_price', 'sl', 'tp', 'profit', 'source', 'opened_at'],
  properties: {
    ticket: { type: 'integer' },
    login: text,
    symbol: text,
    side: SideSchema,
    volume: { ...decimal, description: 'Open lots' },
    open_price: decimal,
    sl: nullableDecimal,
    tp: nullableDecimal,
    profit: { type: ['number', 'null'], description: 'Floating profit in the account currency; null while the symbol has no quote' },
    source: SourceSchema,
    key_id: text,
    opened_at: isoTime,
    amended: AmendedSchema,
  },
} as const;

export const PositionListSchema = pageOf(PositionSchema);

const itemError = {
  type: 'object', additionalProperties: false, required: ['code', 'name', 'message'],
  properties: { code: { type: 'integer' }, name: ErrorNameSchema, message: text, field: text },
} as const;

export const CancelAllResultSchema = {
  type: 'object', additionalProperties: false, required: ['data'],
  properties: { data: { type: 'array', items: OrderSchema, description: 'Every order cancelled, by id' } },
} as const;

export const CloseAllResultSchema = {
  type: 'object', additionalProperties: false, required: ['data'],
  properties: {
    data: {
      type: 'array', description: 'Every position the call was about, by ticket: closed, or failed with the error it got',
      items: {
        type: 'object', additionalProperties: false, required: ['ticket', 'symbol', 'status'],
        properties: {
          ticket: { type: 'integer' }, symbol: text, status: { type: 'string', enum: ['closed', 'failed'] },
          close_price: decimal, profit: { ...decimal, description: 'Realised profit' }, volume: { ...decimal, description: 'Lots closed' }, error: itemError,
        },
      },
    },
  },
} as const;

export const OrderAmendRequestSchema = {
  type: 'object', additionalProperties: false, minProperties: 1,
  properties: {
    price: { ...decimal, description: 'New limit/stop price' },
    volume: { ...decimal, minimum: 0.01, description: 'New lots' },
    sl: { ...nullableDecimal, description: 'New stop-loss; null removes it' },
    tp: { ...nullableDecimal, description: 'New take-profit; null removes it' },
  },
} as const;

export const PositionAmendRequestSchema = {
  type: 'object', additionalProperties: false, minProperties: 1,
  properties: {
    sl: { ...nullableDecimal, description: 'New stop-loss; null removes it' },
    tp: { ...nullableDecimal, description: 'New take-profit; null removes it' },
  },
} as const;

export const DeadManRequestSchema = {
  type: 'object', additionalProperties: false, required: ['login', 'timeout_ms'],
  properties: {
    login: text,
    timeout_ms: { type: 'integer', minimum: 0, description: '0 disarms; otherwise config dead_man.min_timeout_ms to max_timeout_ms (default 5000 to 600000)' },
    close_positions: { type: 'boolean', description: 'Also close the key\'s API positions when it fires (default false)' },
  },
} as const;

const deadManFields = {
  login: text,
  key_id: text,
  armed: { type: 'boolean' },
  close_positions: { type: 'boolean' },
  deadline_ms: { type: ['integer', 'null'], description: 'When it fires, Unix ms of the server clock; null when disarmed' },
  deadline: { type: ['string', 'null'], format: 'date-time' },
  now_ms: unixMs,
} as const;

export const DeadManSchema = {
  type: 'object', additionalProperties: false, required: ['login', 'key_id', 'armed', 'close_positions', 'deadline_ms', 'deadline', 'now_ms'],
  properties: deadManFields,
} as const;

export const CloseResultSchema = {
  type: 'object', additionalProperties: false, required: ['ticket', 'status', 'close_price', 'profit', 'volume'],
  properties: {
    ticket: { type: 'integer' },
    status: { type: 'string', enum: ['closed', 'partially_closed'] },
    close_price: decimal,
    profit: { ...decimal, description: 'Realised profit of the closed volume' },
    volume: { ...decimal, description: 'Lots still open after a partial close; the closed lots after a full close' },
  },
} as const;

const accountCore = {
  login: text, type: { type: 'string', enum: ['live', 'demo'] }, group: text, currency: text,
  balance: decimal, equity: decimal, margin: decimal, free_margin: decimal,
  margin_level: { ...decimal, description: 'equity / margin × 100; 0 while no margin is used' }, leverage: { type: 'integer' },
} as const;

export const AccountItemSchema = {
  type: 'object', additionalProperties: false,
  required: ['login', 'type', 'group', 'currency', 'balance', 'equity', 'margin', 'free_margin', 'margin_level', 'leverage'],
  properties: accountCore,
} as const;

export const AccountListSchema = pageOf(AccountItemSchema);

export const AccountDetailSchema = {
  type: 'object', additionalProperties: false,
  required: ['login', 'server', 'equity', 'free_margin', 'margin_level', 'balance', 'margin', 'currency', 'leverage', 'type', 'group'],
  properties: { ...accountCore, server: text },
} as const;

const weeklySession = {
  type: 'object', additionalProperties: false, required: ['tz', 'open', 'close'],
  properties: {
    tz: { ...text, description: 'UTC offset, e.g. +03:00' },
    open: { ...text, description: 'Weekday and time, e.g. Sun 23:05' },
    close: { ...text, description: 'Weekday and time, e.g. Fri 23:55' },
  },
} as const;

export const SymbolSchema = {
  type: 'object', additionalProperties: false,
  required: ['name', 'digits', 'contract_size', 'base_currency', 'quote_currency', 'min_volume', 'max_volume', 'volume_step', 'session', 'open'],
  properties: {
    name: text,
    digits: { type: 'integer', description: 'Decimal places of its prices' },
    contract_size: { ...decimal, description: 'Units of the base per lot' },
    base_currency: { type: ['string', 'null'] },
    quote_currency: { ...text, description: 'Currency of its prices and of its profit before conversion' },
    min_volume: { ...decimal, description: 'Lots' },
    max_volume: { ...decimal, description: 'Lots' },
    volume_step: { ...decimal, description: 'Lots' },
    session: { oneOf: [{ type: 'string', const: '24x7' }, weeklySession] },
    open: { type: 'boolean', description: 'Whether its session is open at the time of the answer' },
  },
} as const;

export const SymbolListSchema = pageOf(SymbolSchema);

export const ServerTimeSchema = {
  type: 'object', additionalProperties: false, required: ['time_ms', 'time'],
  properties: { time_ms: unixMs, time: isoTime },
} as const;

export const HealthSchema = {
  type: 'object', additionalProperties: false, required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded', 'starting', 'journal_unavailable'] },
    journals: {
      type: 'array', description: 'With journal_unavailable: each shard whose journal cannot make orders durable now',
      items: {
        type: 'object', additionalProperties: false, required: ['shard', 'state', 'message'],
        properties: { shard: { type: 'integer', minimum: 0 }, state: { type: 'string', enum: ['full', 'failed'] }, message: { type: 'string' } },
      },
    },
    checkpoints: {
      type: 'array',
      description: 'With degraded: each shard whose checkpoints fail. Orders are still accepted and durable in the journal, which keeps everything since the last durable checkpoint until one succeeds',
      items: {
        type: 'object', additionalProperties: false, required: ['shard', 'failed_in_a_row', 'since', 'message'],
        properties: {
          shard: { type: 'integer', minimum: 0 }, failed_in_a_row: { type: 'integer', minimum: 1 },
          since: { ...isoTime, description: 'When the first of the failed checkpoints started' }, message: { type: 'string' },
        },
      },
    },
  },
} as const;

export const ErrorSchema = {
  type: 'object',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object', additionalProperties: false, required: ['code', 'name', 'message', 'request_id'],
      properties: {
        code: { type: 'integer', description: 'The HTTP status' },
        name: ErrorNameSchema,
        message: text,
        field: { ...text, description: 'The offending field, on validation errors' },
        request_id: text,
      },
    },
    order: { ...OrderSchema, description: 'duplicate_client_id: the order the client id already created' },
  },
} as const;

export const OrderRequestSchema = {
  type: 'object', additionalProperties: false, required: ['login', 'symbol', 'side', 'type', 'volume'],
  properties: {
    login: text,
    symbol: text,
    side: SideSchema,
    type: { type: 'string', enum: ['market', 'limit', 'stop'] },
    volume: { ...decimal, minimum: 0.01, description: 'Lots, in steps of 0.01' },
    price: { ...decimal, description: 'Required for limit and stop' },
    sl: decimal,
    tp: decimal,
    client_id: { ...text, minLength: 1, maxLength: 64, description: 'Idempotency key, per account, kept at least 24 h' },
  },
} as const;

const fanoutError = {
  type: 'object', additionalProperties: false, required: ['name', 'message'],
  properties: { name: { ...text, description: 'An error name, or timeout when the deadline cut the target off' }, message: text, field: text },
} as const;

const closedPosition = {
  type: 'object', additionalProperties: false, required: ['login', 'ticket', 'status', 'profit'],
  properties: {
    login: text, ticket: { type: 'integer' }, status: { type: 'string', enum: ['closed', 'partially_closed'] }, profit: decimal,
    symbol: text, side: SideSchema, source: SourceSchema, volume: decimal, close_price: decimal,
  },
} as const;

export const FanoutItemSchema = {
  type: 'object', additionalProperties: false, required: ['login', 'volume'],
  properties: {
    login: text,
    volume: { ...decimal, description: 'Lots traded for this account (0 when it failed)' },
    ticket: { type: ['integer', 'null'] },
    error: fanoutError,
    closed: { type: 'array', items: closedPosition },
    failed: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['ticket', 'error'], properties: { ticket: { type: 'integer' }, error: fanoutError } },
    },
  },
} as const;

export const SignalRequestSchema = {
  type: 'object', required: ['action', 'symbol'],
  properties: {
    secret: { ...text, description: 'The webhook secret, unless X-Svc-Signature is sent' },
    action: { type: 'string', enum: ['buy', 'sell', 'close', 'close_all'] },
    symbol: text,
    volume: decimal,
    sl: decimal,
    tp: decimal,
    comment: { ...text, maxLength: 32, description: 'Dedup key for 10 seconds' },
  },
} as const;

export const SignalResultSchema = {
  type: 'object', additionalProperties: false, required: ['status', 'signal_id', 'fanout', 'latency_ms'],
  properties: {
    status: { type: 'string', const: 'accepted' },
    signal_id: text,
    fanout: { type: 'array', items: FanoutItemSchema },
    latency_ms: decimal,
    duplicate: { type: 'boolean', description: 'A repeat of a comment seen within 10 s: the original result, not traded again' },
  },
} as const;

// ---------------------------------------------------------------------------------------------
// The stream (AsyncAPI): client operations and server messages, newline-separated JSON objects.

const opId = { type: ['integer', 'string', 'null'], description: 'Echoed in the answer' } as const;
const channelName = { type: 'string', enum: ['quotes', 'orders', 'positions', 'account'] } as const;
const seq = { type: 'integer', minimum: 0, description: 'Per-account event number; only grows' } as const;

export const SubscribeOpSchema = {
  type: 'object', additionalProperties: false, required: ['op', 'channels'],
  properties: {
    op: { type: 'string', const: 'subscribe' }, id: opId, channels: { type: 'array', items: channelName, minItems: 1 },
    symbols: { type: 'array', items: text }, login: text, since_seq: seq,
  },
} as const;

export const UnsubscribeOpSchema = {
  type: 'object', additionalProperties: false, required: ['op', 'channels'],
  properties: {
    op: { type: 'string', const: 'unsubscribe' }, id: opId, channels: { type: 'array', items: channelName, minItems: 1 },
    symbols: { type: 'array', items: text }, login: text,
  },
} as const;

export const PingOpSchema = {
  type: 'object', additionalProperties: false, required: ['op'],
  properties: { op: { type: 'string', const: 'ping' }, id: opId },
} as const;

export const CancelAllAfterOpSchema = {
  type: 'object', additionalProperties: false, required: ['op', 'timeout_ms'],
  properties: { op: { type: 'string', const: 'cancel_all_after' }, id: opId, timeout_ms: DeadManRequestSchema.properties.timeout_ms, close_positions: DeadManRequestSchema.properties.close_positions },
} as const;

export const CancelOnDisconnectOpSchema = {
  type: 'object', additionalProperties: false, required: ['op', 'enabled'],
  properties: {
    op: { type: 'string', const: 'cancel_on_disconnect' }, id: opId,
    enabled: { type: 'boolean', description: 'While true, this connection dropping cancels the key\'s orders at once' },
    close_positions: { type: 'boolean', description: 'Also close the key\'s API positions (default false)' },
  },
} as const;

const channelIs = <C extends string>(c: C) => ({ type: 'string', const: c }) as const;

export const AckMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'id', 'channels', 'symbols'],
  properties: {
    channel: { type: 'string', enum: ['subscribed', 'unsubscribed'] }, id: opId,
    channels: { type: 'array', items: channelName }, symbols: { type: 'array', items: text }, login: text,
  },
} as const;

export const ErrorMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'id', 'name', 'message'],
  properties: {
    channel: channelIs('error'), id: opId,
    name: { type: 'string', enum: ['bad_request', 'forbidden', 'not_found', 'rate_limited', 'internal_error'] },
    message: text, field: text,
    oldest_seq: { ...seq, description: 'since_seq too old: the oldest event still kept' },
  },
} as const;

export const PongMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'id', 'ts'],
  properties: { channel: channelIs('pong'), id: opId, ts: unixMs },
} as const;

export const HeartbeatMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'ts'],
  properties: { channel: channelIs('heartbeat'), ts: unixMs },
} as const;

export const QuoteMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'symbol', 'bid', 'ask', 'ts'],
  properties: { channel: channelIs('quote'), symbol: text, bid: decimal, ask: decimal, ts: unixMs },
} as const;

export const OrderMessageSchema = {
  type: 'object', additionalProperties: false,
  required: [...OrderSchema.required, 'channel', 'seq', 'ts'],
  properties: { channel: channelIs('order'), ...OrderSchema.properties, seq, ts: unixMs },
} as const;

const PositionEventSchema = {
  type: 'object', additionalProperties: false,
  required: [...PositionSchema.required, 'channel', 'status', 'seq', 'ts'],
  properties: {
    channel: channelIs('position'),
    ...PositionSchema.properties,
    status: { type: 'string', enum: ['open', 'partially_closed', 'closed'] },
    close_price: decimal,
    closed_volume: { ...decimal, description: 'Lots closed by a partial close (volume is what stays open)' },
    reason: { type: 'string', enum: ['client', 'sl', 'tp', 'kill_switch', 'webhook', 'dead_man', 'stop_out'] },
    seq,
    ts: unixMs,
  },
} as const;

const PositionLiveSchema = {
  type: 'object', additionalProperties: false,
  required: ['channel', 'live', 'login', 'ticket', 'symbol', 'profit', 'equity', 'ts'],
  description: 'Live P&L: the floating profit of an open position as ticks move it (at most every 100 ms per position, '
    + 'conflated to the latest for a slow connection), with the account\'s equity. No seq: never replayed.',
  properties: {
    channel: channelIs('position'), live: { type: 'boolean', const: true }, login: text, ticket: { type: 'integer' }, symbol: text,
    profit: { type: ['number', 'null'], description: 'Floating profit in the account currency; null while it cannot be priced' },
    equity: decimal, ts: unixMs,
  },
} as const;

/** A position event (with seq), or a live P&L update (live: true, no seq). */
export const PositionMessageSchema = {
  type: 'object', required: ['channel'], properties: { channel: channelIs('position') },
  oneOf: [PositionEventSchema, PositionLiveSchema],
} as const;

export const CancelAllAfterMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'id', ...DeadManSchema.required],
  properties: { channel: channelIs('cancel_all_after'), id: opId, ...deadManFields },
} as const;

export const CancelOnDisconnectMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'id', 'enabled', 'close_positions'],
  properties: { channel: channelIs('cancel_on_disconnect'), id: opId, enabled: { type: 'boolean' }, close_positions: { type: 'boolean' } },
} as const;

export const AccountMessageSchema = {
  type: 'object', additionalProperties: false,
  required: ['channel', 'login', 'balance', 'equity', 'margin', 'free_margin', 'margin_level', 'margin_call', 'seq', 'ts'],
  properties: {
    channel: channelIs('account'), login: text, balance: decimal, equity: decimal, margin: decimal,
    free_margin: decimal, margin_level: decimal,
    margin_call: { type: 'boolean', description: 'The margin level is below the account group\'s margin-call level (stop-out comes next)' },
    seq, ts: unixMs,
  },
} as const;

export const SnapshotMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'login', 'seq', 'ts', 'page'],
  properties: {
    channel: channelIs('snapshot'), login: text, seq: { ...seq, description: 'The account\'s last event the snapshot includes; the same on every page' }, ts: unixMs,
    page: { type: 'integer', minimum: 1, description: '1, 2, ...: a snapshot_end follows the last page' },
    positions: { type: 'array', items: PositionSchema, description: 'This page\'s open positions (present when positions were subscribed)' },
    orders: { type: 'array', items: OrderSchema, description: 'This page\'s pending orders (present when orders were subscribed)' },
  },
} as const;

export const SnapshotEndMessageSchema = {
  type: 'object', additionalProperties: false, required: ['channel', 'login', 'seq', 'ts', 'pages'],
  properties: {
    channel: channelIs('snapshot_end'), login: text, seq, ts: unixMs,
    pages: { type: 'integer', minimum: 1 },
    position_count: { type: 'integer', minimum: 0, description: 'Positions in all the pages (when positions were subscribed)' },
    order_count: { type: 'integer', minimum: 0, description: 'Orders in all the pages (when orders were subscribed)' },
  },
} as const;
