import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadStartOptions } from '../../src/config/load.js';
import type { StartOptions } from '../../src/config/types.js';
import { defaultsRaw, withValue } from './helpers.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), 'tas-config-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return p;
}

const load = (argv: string[], env: NodeJS.ProcessEnv = {}): StartOptions => loadStartOptions(argv, env, dir);

function errorOf(argv: string[], env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    load(argv, env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('loading passed');
}

const BTC_ONLY = { symbols: [{ name: 'BTCUSD', digits: 2, bid: 65000, ask: 65010, session: '24x7' }] };

describe('loadStartOptions precedence', () => {
  it('starts from config/default.json, whatever the working directory', () => {
    const { config, configFile, seedFile } = load([]);
    expect(config.http.port).toBe(8080);
    expect(config.data_dir).toBe(path.join(dir, 'data'));
    expect(config.seed.users.map((u) => u.id)).toEqual(['demo']);
    expect([configFile, seedFile]).toEqual([null, null]);
  });

  it('merges a --config file over the defaults: objects key by key, arrays replaced', () => {
    const cfg = file('cfg.json', { http: { port: 9000 }, trusted_proxies: ['10.0.0.0/8'], seed: { keys: [] } });
    const { config, configFile } = load(['--config', cfg]);
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 9000, max_body_bytes: 65536 });
    expect(config.trusted_proxies).toEqual(['10.0.0.0/8']);
    expect(config.seed.keys).toEqual([]);
    expect(config.seed.accounts).toHaveLength(3);
    expect(configFile).toBe(cfg);
  });

  it('takes TAS_CONFIG when no flag is given, and the flag over it', () => {
    const a = file('a.json', { shards: 3 });
    const b = file('b.json', { shards: 4 });
    expect(load([], { TAS_CONFIG: a }).config.shards).toBe(3);
    expect(load(['--config', b], { TAS_CONFIG: a }).config.shards).toBe(4);
    expect(load([`--config=${b}`]).config.shards).toBe(4);
  });

  it('resolves a relative --config against the working directory', () => {
    file('rel.json', { shards: 5 });
    expect(load(['--config', 'rel.json']).configFile).toBe(path.join(dir, 'rel.json'));
  });

  it('replaces the whole seed with a --seed fixture, over the --config file\'s', () => {
    const cfg = file('cfg.json', { seed: { users: [{ id: 'cfg', password: 'x', totp_secret: 'JBSWY3DPEHPK3PXP' }] } });
    const seed = file('seed.json', BTC_ONLY);
    const { config, seedFile } = load(['--config', cfg, '--seed', seed]);
    expect(config.seed.symbols.map((s) => s.name)).toEqual(['BTCUSD']);
    expect(config.seed.users).toEqual([]);
    expect(seedFile).toBe(seed);
    expect(load([], { TAS_SEED: seed }).config.seed.symbols).toHaveLength(1);
  });

  it('sets the data directory by --data over TAS_DATA_DIR over the config file', () => {
    const cfg = file('cfg.json', { data_dir: 'from-config' });
    expect(load(['--config', cfg]).config.data_dir).toBe(path.join(dir, 'from-config'));
    expect(load(['--config', cfg], { TAS_DATA_DIR: 'from-env' }).config.data_dir).toBe(path.join(dir, 'from-env'));
    expect(load(['--config', cfg, '--data', '/abs/from-flag'], { TAS_DATA_DIR: 'from-env' }).config.data_dir).toBe('/abs/from-flag');
  });

  it('keeps the journals in the data directory unless journal.dir names one, resolved against the working directory', () => {
    expect(load([]).config.journal.dir).toBeNull();
    const cfg = file('cfg.json', { journal: { dir: 'wal' } });
    expect(load(['--config', cfg]).config.journal).toEqual({ segment_bytes: 33554432, sync_method: 'fdatasync', dir: path.join(dir, 'wal') });
    expect(load(['--config', cfg], { TAS_JOURNAL_DIR: '/mnt/wal' }).config.journal.dir).toBe('/mnt/wal');
    expect(load(['--config', cfg], { TAS_JOURNAL_DIR: '' }).config.journal.dir).toBeNull();
    expect(errorOf(['--config', file('bad.json', { journal: { dir: '' } })]).message).toContain('journal.dir');
  });

  it('lets TAS_<KEY> variables override the config file', () => {
    const cfg = file('cfg.json', { http: { port: 9000 }, log: { level: 'warn' } });
    const { config } = load(['--config', cfg], { TAS_HTTP_PORT: '9100', TAS_LOG_LEVEL: 'debug' });
    expect(config.http.port).toBe(9100);
    expect(config.log.level).toBe('debug');
  });
});

describe('environment overrides', () => {
  it.each([
    ['TAS_HTTP_PORT', '0', (o: StartOptions) => o.config.http.port, 0],
    ['TAS_CONSOLE_PORT', '18081', (o: StartOptions) => o.config.console.port, 18081],
    ['TAS_FIX_PORT', '19880', (o: StartOptions) => o.config.fix.port, 19880],
    ['TAS_SHARDS', '4', (o: StartOptions) => o.config.shards, 4],
    ['TAS_PRICES_SPEED', '2.5', (o: StartOptions) => o.config.prices.speed, 2.5],
    ['TAS_HTTP_HOST', '0.0.0.0', (o: StartOptions) => o.config.http.host, '0.0.0.0'],
    ['TAS_LOG_LEVEL', 'trace', (o: StartOptions) => o.config.log.level, 'trace'],
    ['TAS_DURABILITY', 'none', (o: StartOptions) => o.config.durability, 'none'],
    ['TAS_FIX_SENDER_PREFIX', '123', (o: StartOptions) => o.config.fix.sender_prefix, '123'],
    ['TAS_CONSOLE_ADMIN_TOKEN', 'operator-token-0123456789', (o: StartOptions) => o.config.console.admin_token, 'operator-token-0123456789'],
    ['TAS_CONSOLE_ADMIN_TOKEN', '', (o: StartOptions) => o.config.console.admin_token, null],
    ['TAS_PRICES_SOURCE', 'push', (o: StartOptions) => o.config.prices.source, 'push'],
    ['TAS_CLUSTER_SHARDS', '6', (o: StartOptions) => o.config.cluster.shards, 6],
    ['TAS_CLUSTER_LEASE_MS', '3000', (o: StartOptions) => o.config.cluster.lease_ms, 3000],
  ])('%s=%j', (variable, value, read, expected) => {
    expect(read(load([], { [variable]: value }))).toBe(expected);
  });

  it('reads booleans as booleans: a node joins its cluster from the environment', () => {
    const { cluster } = load([], { TAS_CLUSTER_ENABLED: 'true', TAS_CLUSTER_NODE_ID: 'n2' }).config;
    expect(cluster).toMatchObject({ enabled: true, node_id: 'n2' });
    expect(errorOf([], { TAS_CLUSTER_ENABLED: 'yes' }).message).toContain('cluster.enabled');
  });

  it('names the key and the variable of a bad value', () => {
    expect(errorOf([], { TAS_HTTP_PORT: 'abc' }).message)
      .toBe('config error at http.port: must be an integer 0..65535, got "abc" (set by TAS_HTTP_PORT)');
    expect(errorOf([], { TAS_SHARDS: '1.5' }).path).toBe('shards');
    expect(errorOf([], { TAS_DURABILITY: 'async' }).reason).toContain('TAS_DURABILITY');
  });

  it('refuses an unknown TAS_ variable and leaves other variables alone', () => {
    expect(errorOf([], { TAS_HTTP_PROT: '1' }).message).toContain('unknown environment variable TAS_HTTP_PROT');
    expect(errorOf([], { TAS_SEED_USERS: '[]' }).message).toContain('TAS_SEED_USERS');
    expect(load([], { HOME: '/root', PATH: '/bin' }).config.http.port).toBe(8080);
  });
});

describe('start-up refusals', () => {
  it.each([
    [['--foo'], 'unknown flag "--foo"'],
    [['serve'], 'unexpected argument "serve"'],
    [['--config'], '--config needs a value'],
    [['--config', '--seed', 'x.json'], '--config needs a value'],
    [['--data='], '--data needs a value'],
    [['--data', 'a', '--data', 'b'], '--data is given twice'],
  ])('%j', (argv, message) => {
    const e = errorOf(argv);
    expect(e.path).toBeNull();
    expect(e.message).toContain(message);
  });

  it('stops on a missing or unreadable file, naming it', () => {
    const missing = path.join(dir, 'missing.json');
    expect(errorOf(['--config', missing]).message).toContain(`config error: cannot read ${missing}`);
    expect(errorOf(['--seed', missing]).message).toContain(`seed error: cannot read ${missing}`);
    expect(errorOf(['--config', dir]).message).toContain(`cannot read ${dir}`);
  });

  it('stops on bad JSON with the file and the position', () => {
    const cfg = file('bad.json', '{\n  "http": { "port": 9000 }\n  "shards": 2\n}\n');
    expect(errorOf(['--config', cfg]).message)
      .toBe(`config error: bad JSON in ${cfg}: Expected ',' or '}' after property value at line 3 column 3`);
    const seed = file('bad-seed.json', '{ "symbols": [ }');
    const e = errorOf(['--seed', seed]);
    expect(e.kind).toBe('seed');
    expect(e.message).toContain(`bad JSON in ${seed}`);
  });

  it('refuses a config file that is not an object', () => {
    const cfg = file('list.json', [1, 2]);
    expect(errorOf(['--config', cfg]).message).toBe(`config error: ${cfg} must hold a JSON object`);
  });

  it('stops on a malformed fixture file with the path of the bad value', () => {
    const raw = withValue(defaultsRaw().seed, 'accounts[2].leverage', 'high');
    const e = errorOf(['--seed', file('seed.json', raw)]);
    expect(e.message).toBe('seed error at accounts[2].leverage: must be an integer 1..1000, got "high"');
  });

  it('stops on an unknown key in the config file with its path', () => {
    const cfg = file('cfg.json', { http: { prot: 8080 } });
    expect(errorOf(['--config', cfg]).message).toBe('config error at http.prot: unknown key');
  });
});

describe('paths', () => {
  it('resolves TLS files and the replay file against the working directory', () => {
    file('cert.pem', 'c');
    file('key.pem', 'k');
    file('ticks.csv', 'ts,symbol,bid,ask\n');
    const cfg = file('cfg.json', {
      http: { tls: { cert: 'cert.pem', key: 'key.pem' } },
      prices: { source: 'replay', file: 'ticks.csv' },
    });
    const { config } = load(['--config', cfg]);
    expect(config.http.tls).toEqual({ cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') });
    expect(config.fix.tls).toEqual({ cert: null, key: null });
    expect(config.prices.file).toBe(path.join(dir, 'ticks.csv'));
  });

  it('names the key of a configured file that cannot be read', () => {
    file('cert.pem', 'c');
    const cfg = file('cfg.json', { fix: { tls: { cert: 'cert.pem', key: 'nokey.pem' } } });
    expect(errorOf(['--config', cfg]).message).toBe(`config error at fix.tls.key: cannot read ${path.join(dir, 'nokey.pem')}`);
  });
});
