import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { validateConfig } from '../../src/config/validate.js';
import { defaultsRaw, withValue } from './helpers.js';

function errorOf(raw: unknown): ConfigError {
  try {
    validateConfig(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('validation passed');
}

describe('validateConfig', () => {
  it('accepts the shipped defaults as the DECISIONS state them', () => {
    const config = validateConfig(defaultsRaw());
    expect(config.http).toEqual({ host: '127.0.0.1', port: 8080, tls: { cert: null, key: null }, max_body_bytes: 65536 });
    expect(config.console).toEqual({ host: '127.0.0.1', port: 8081, admin_token: null });
    expect(config.fix).toMatchObject({
      host: '127.0.0.1', port: 9880, sender_prefix: 'TAS', target_comp_id: 'TASGW',
      session: { tz: '+03:00', open: 'Sun 23:05', close: 'Fri 23:55' }, heartbeat_s: 30, logon_timeout_ms: 5000,
    });
    expect(config).toMatchObject({ shards: 1, data_dir: './data', trusted_proxies: [], durability: 'sync', log: { level: 'info' } });
    expect(config.prices).toEqual({ source: 'simulated', seed: 42, file: null, speed: 1 });
    expect(config.stream).toEqual({
      heartbeat_ms: 5000, retention_hours: 24, max_buffer_bytes: 1048576, max_connections_per_key: 5, max_symbols_per_connection: 200,
    });
    expect(config.webhooks).toEqual({ deadline_ms: 1000, dedup_window_ms: 10000 });
  });

  it('ships a demo fixture: a 24x7 symbol, three accounts in two currencies, a key and a fan-out webhook', () => {
    const { seed } = validateConfig(defaultsRaw());
    const byName = new Map(seed.symbols.map((s) => [s.name, s]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'BTCUSD']));
    expect(byName.get('BTCUSD')?.session).toBe('24x7');
    expect(byName.get('USDJPY')?.digits).toBe(3);
    expect(seed.accounts.map((a) => [a.login, a.currency, a.type])).toEqual([
      ['100001', 'USD', 'demo'], ['100002', 'USD', 'live'], ['100003', 'EUR', 'demo'],
    ]);
    expect(seed.accounts[1]?.group).toBe('real\\ECN');
    expect(seed.keys[0]).toMatchObject({ login: '100001', scopes: ['read', 'trade'], rate_limit: 20 });
    expect(seed.webhooks[0]?.targets.map((t) => t.sizing.type)).toEqual(['fixed', 'multiplier', 'risk_percent']);
  });

  it.each([
    ['http.prot', 8080, 'http.prot', 'unknown key'],
    ['extra', true, 'extra', 'unknown key'],
    ['fix.tls.pem', 'x', 'fix.tls.pem', 'unknown key'],
    ['http.port', 'abc', 'http.port', 'must be an integer 0..65535, got "abc"'],
    ['http.port', 65536, 'http.port', 'must be an integer 0..65535, got 65536'],
    ['http.port', -1, 'http.port', 'integer 0..65535'],
    ['console.port', 80.5, 'console.port', 'integer 0..65535'],
    ['http.port', undefined, 'http.port', 'is required'],
    ['http', undefined, 'http', 'must be an object, got nothing'],
    ['http.host', 'local host', 'http.host', 'IP address or host name'],
    ['fix.host', 'fe80::1%eth0', 'fix.host', 'IP address or host name'],
    ['http.tls.cert', 'cert.pem', 'http.tls.key', 'cert and key must be set together'],
    ['fix.tls.key', 'key.pem', 'fix.tls.cert', 'cert and key must be set together'],
    ['http.max_body_bytes', 10, 'http.max_body_bytes', 'integer 1024..'],
    ['console.admin_token', 'short', 'console.admin_token', 'got 5 characters'],
    ['fix.sender_prefix', 'T_S', 'fix.sender_prefix', 'letters or digits'],
    ['fix.target_comp_id', '', 'fix.target_comp_id', '1..32 characters'],
    ['fix.session', 'always', 'fix.session', 'must be "24x7" or'],
    ['fix.session.tz', 'GMT', 'fix.session.tz', 'tz must look like "+03:00"'],
    ['fix.session.open', 'Sun 25:00', 'fix.session.open', 'out of range'],
    ['fix.session.close', 'Sun 23:05', 'fix.session.close', 'open and close must differ'],
    ['fix.session.days', 5, 'fix.session.days', 'unknown key'],
    ['fix.heartbeat_s', 0, 'fix.heartbeat_s', 'integer 1..300'],
    ['fix.logon_timeout_ms', 50, 'fix.logon_timeout_ms', 'integer 100..60000'],
    ['shards', 0, 'shards', 'integer 1..64'],
    ['data_dir', '', 'data_dir', 'non-empty path'],
    ['trusted_proxies', '10.0.0.1', 'trusted_proxies', 'must be an array'],
    ['trusted_proxies', ['10.0.0.0/33'], 'trusted_proxies[0]', 'address or CIDR'],
    ['trusted_proxies', ['::1', '::1'], 'trusted_proxies[1]', 'duplicates trusted_proxies[0]'],
    ['durability', 'async', 'durability', 'one of "sync", "none"'],
    ['log.level', 'verbose', 'log.level', 'one of "fatal"'],
    ['prices.source', 'random', 'prices.source', 'one of "simulated", "replay", "push"'],
    ['prices.source', 'replay', 'prices.file', 'required when prices.source is "replay"'],
    ['prices.seed', -1, 'prices.seed', 'integer 0..'],
    ['prices.speed', 0, 'prices.speed', 'a number > 0'],
    ['stream.heartbeat_ms', 10, 'stream.heartbeat_ms', 'integer 100..'],
    ['stream.retention_hours', 12, 'stream.retention_hours', 'integer 24..'],
    ['stream.max_buffer_bytes', 1000, 'stream.max_buffer_bytes', 'integer 65536..'],
    ['stream.max_connections_per_key', 0, 'stream.max_connections_per_key', 'integer 1..'],
    ['stream.max_symbols_per_connection', 0, 'stream.max_symbols_per_connection', 'integer 1..'],
    ['webhooks.deadline_ms', 3000, 'webhooks.deadline_ms', 'integer 1..2900'],
    ['webhooks.dedup_window_ms', 0, 'webhooks.dedup_window_ms', 'integer 1000..'],
    ['seed.accounts[0].leverage', 0, 'seed.accounts[0].leverage', 'integer 1..1000'],
  ])('refuses %s = %j at %s', (path, value, errorPath, reason) => {
    const e = errorOf(withValue(defaultsRaw(), path, value));
    expect(e.kind).toBe('config');
    expect(e.path).toBe(errorPath);
    expect(e.message).toContain(`config error at ${errorPath}: `);
    expect(e.reason).toContain(reason);
  });

  it('accepts the edge values of the ranges', () => {
    let raw = withValue(defaultsRaw(), 'http.port', 0);
    raw = withValue(raw, 'console.port', 65535);
    raw = withValue(raw, 'fix.session', '24x7');
    raw = withValue(raw, 'http.host', 'localhost');
    raw = withValue(raw, 'fix.host', '::');
    raw = withValue(raw, 'trusted_proxies', ['10.0.0.0/8', '::ffff:192.168.0.0/112']);
    raw = withValue(raw, 'prices.source', 'replay');
    raw = withValue(raw, 'prices.file', 'ticks.csv');
    raw = withValue(raw, 'console.admin_token', 'x'.repeat(16));
    const config = validateConfig(raw);
    expect(config.http.port).toBe(0);
    expect(config.console.port).toBe(65535);
    expect(config.fix.session).toBe('24x7');
    expect(config.prices.file).toBe('ticks.csv');
  });

  it('reports a fixture error as a seed error when the fixture came from its own file', () => {
    const raw = withValue(defaultsRaw(), 'seed.accounts[2].leverage', 1.5);
    let caught: unknown;
    try {
      validateConfig(raw, 'seed');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).message).toBe('seed error at accounts[2].leverage: must be an integer 1..1000, got 1.5');
  });

  it('reads the cluster keys: off by default, a node_id required when on, preferred shards below the shard count', () => {
    expect(validateConfig(defaultsRaw()).cluster).toEqual({
      enabled: false, node_id: null, nats: { servers: ['nats://127.0.0.1:4222'] }, shards: 4, replicas: 3, lease_ms: 2000, preferred_shards: [],
    });
    const on = withValue(defaultsRaw(), 'cluster.enabled', true);
    expect(errorOf(on).message).toBe('config error at cluster.node_id: is required when cluster.enabled is true');
    const named = withValue(on, 'cluster.node_id', 'n1');
    expect(validateConfig(named).cluster).toMatchObject({ enabled: true, node_id: 'n1' });
    expect(errorOf(withValue(named, 'cluster.preferred_shards', [4])).message).toBe('config error at cluster.preferred_shards: shard 4 is not below cluster.shards (4)');
    expect(errorOf(withValue(named, 'cluster.nats.servers', ['http://x'])).message).toMatch(/^config error at cluster\.nats\.servers\[0\]: must be a NATS URL/);
    expect(errorOf(withValue(named, 'cluster.nats.servers', [])).message).toBe('config error at cluster.nats.servers: needs at least one server when cluster.enabled is true');
    expect(errorOf(withValue(named, 'cluster.lease_ms', 100)).message).toMatch(/^config error at cluster\.lease_ms: must be an integer 500\.\.60000/);
    expect(errorOf(withValue(named, 'cluster.shards', 65)).message).toMatch(/^config error at cluster\.shards: must be an integer 1\.\.64/);
  });
});
