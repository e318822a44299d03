// Start-up options (DECISIONS "Running it"). Precedence, lowest first: config/default.json → the
// `--config` file merged over it → the `--seed` fixture replacing `seed` → `--data` → `TAS_<KEY>`
// variables. Everything is validated once, over the merged result; relative paths resolve
// against the working directory.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { envOverrides } from './env.js';
import { ConfigError, type ConfigErrorKind } from './errors.js';
import type { AppConfig, StartOptions, TlsFiles } from './types.js';
import { validateConfig } from './validate.js';

const FLAGS = { '--config': 'config', '--seed': 'seed', '--data': 'data' } as const;
type Flag = (typeof FLAGS)[keyof typeof FLAGS];
const USAGE = 'usage: node dist/src/main.js [--config FILE] [--seed FILE] [--data DIR] | --help | --version';

export const SERVER_HELP = `${USAGE}
Starts the Trading Access Service: REST, WebSocket stream and signal webhooks (http), the
management console (console) and the FIX 4.4 gateway (fix).
  --config FILE  JSON merged over config/default.json (TAS_CONFIG)
  --seed FILE    bootstrap fixture, upserted at start; default: the demo fixture (TAS_SEED)
  --data DIR     LMDB data directory, default ./data (TAS_DATA_DIR)
  --help         this text
  --version      the service's version, Node's and the uWebSockets.js build it would run on
Any scalar setting can be set as TAS_<KEY>, e.g. TAS_HTTP_PORT=9000 (docs/configuration.md).`;

function parseFlags(argv: readonly string[]): Partial<Record<Flag, string>> {
  const given: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const flag = Object.hasOwn(FLAGS, name) ? FLAGS[name as keyof typeof FLAGS] : undefined;
    if (flag === undefined) {
      throw new ConfigError('config', null, `${arg.startsWith('-') ? 'unknown flag' : 'unexpected argument'} ${JSON.stringify(arg)}; ${USAGE}`);
    }
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('--')) throw new ConfigError('config', null, `${name} needs a value; ${USAGE}`);
    if (given[flag] !== undefined) throw new ConfigError('config', null, `${name} is given twice`);
    given[flag] = value;
  }
  return given;
}

/** "line 3 column 7" for V8's "... in JSON at position 42", which Node 20 gives for most faults. */
function jsonFault(message: string, text: string): string {
  const m = / in JSON at position (\d+)/.exec(message);
  if (!m) return message;
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${message.replace(m[0], '')} at line ${line} column ${column}`;
}

function readJson(file: string, kind: ConfigErrorKind): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(kind, null, `cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ConfigError(kind, null, `bad JSON in ${file}: ${jsonFault((e as Error).message, text)}`);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Objects merge key by key; anything else (arrays, null, scalars) in `over` replaces. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const keys = new Set([...Object.keys(base), ...Object.keys(over)]);
  // fromEntries defines own properties, so a "__proto__" key stays a key (and is refused as unknown).
  return Object.fromEntries([...keys].map((k) => [k, k in over ? deepMerge(base[k], over[k]) : base[k]]));
}

function setAt(node: unknown, keys: readonly string[], value: unknown): unknown {
  const [first, ...rest] = keys;
  if (first === undefined) return value;
  const object = isPlainObject(node) ? node : {};
  return { ...object, [first]: setAt(object[first], rest, value) };
}

export function packageFile(...parts: string[]): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new ConfigError('config', null, `no package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return path.join(dir, ...parts);
}

/** config/default.json of this package, wherever it is started from. */
export const DEFAULT_CONFIG_FILE = packageFile('config', 'default.json');

/** `version` of this package's package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}

function resolveFiles(config: AppConfig, cwd: string): AppConfig {
  const file = (p: string | null, key: string): string | null => {
    if (p === null) return null;
    const resolved = path.resolve(cwd, p);
    try {
      accessSync(resolved, constants.R_OK);
    } catch {
      throw new ConfigError('config', key, `cannot read ${resolved}`);
    }
    return resolved;
  };
  const tls = (t: TlsFiles, at: string): TlsFiles => ({ cert: file(t.cert, `${at}.cert`), key: file(t.key, `${at}.key`) });
  return {
    ...config,
    data_dir: path.resolve(cwd, config.data_dir),
    journal: { ...config.journal, dir: config.journal.dir === null ? null : path.resolve(cwd, config.journal.dir) },
    http: { ...config.http, tls: tls(config.http.tls, 'http.tls') },
    fix: { ...config.fix, tls: tls(config.fix.tls, 'fix.tls') },
    prices: { ...config.prices, file: file(config.prices.file, 'prices.file') },
  };
}

/**
 * The validated configuration for `tas [--config FILE] [--seed FILE] [--data DIR]` (also
 * TAS_CONFIG, TAS_SEED, TAS_DATA_DIR; a flag beats its variable) and `TAS_<KEY>` overrides.
 * Throws ConfigError naming the flag, file or key path at fault.
 */
export function loadStartOptions(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): StartOptions {
  const flags = parseFlags(argv);
  const fromCwd = (p: string | undefined): string | null => (p === undefined || p === '' ? null : path.resolve(cwd, p));
  const configFile = fromCwd(flags.config ?? env.TAS_CONFIG);
  const seedFile = fromCwd(flags.seed ?? env.TAS_SEED);
  const dataDir = flags.data ?? env.TAS_DATA_DIR;

  const defaults = readJson(DEFAULT_CONFIG_FILE, 'config');
  let merged = defaults;
  if (configFile !== null) {
    const over = readJson(configFile, 'config');
    if (!isPlainObject(over)) throw new ConfigError('config', null, `${configFile} must hold a JSON object`);
    merged = deepMerge(defaults, over);
  }
  if (seedFile !== null) merged = setAt(merged, ['seed'], readJson(seedFile, 'seed'));
  if (dataDir !== undefined && dataDir !== '') merged = setAt(merged, ['data_dir'], dataDir);
  const overrides = envOverrides(defaults, env);
  for (const o of overrides) merged = setAt(merged, o.keys, o.value);

  let config: AppConfig;
  try {
    config = validateConfig(merged, seedFile === null ? 'config' : 'seed');
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // A bad value from the environment is reported with the variable that set it.
    const override = e.kind === 'config' ? overrides.find((o) => o.keys.join('.') === e.path) : undefined;
    throw override ? new ConfigError('config', e.path, `${e.reason} (set by ${override.variable})`) : e;
  }
  return { config: resolveFiles(config, cwd), configFile, seedFile };
}
