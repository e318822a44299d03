// Environment overrides `TAS_<PATH>` of the configuration's scalar keys (dots become `_`, upper
// case: http.port → TAS_HTTP_PORT). The settable keys and their types come from config/default.json,
// so a key added there is settable here with no second list to keep in step.
import { ConfigError } from './errors.js';

const PREFIX = 'TAS_';
/** Variables that name files and directories rather than keys (see load.ts). */
export const SOURCE_VARIABLES = ['TAS_CONFIG', 'TAS_SEED', 'TAS_DATA_DIR'] as const;
/** Fault injection for the durability tests (src/store/faults.ts); never a configuration key. */
export const FAULTS_VARIABLE = 'TAS_FAULTS';
/** Keys with a source of their own, or not scalars: the fixture is only ever a file. */
const NOT_FROM_ENV = new Set(['seed', 'data_dir']);
const NUMBER_SYNTAX = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export interface EnvOverride {
  readonly variable: string;
  /** Key path split at the dots. */
  readonly keys: readonly string[];
  readonly value: unknown;
}

function variableOf(keys: readonly string[]): string {
  return PREFIX + keys.join('_').toUpperCase();
}

/** Every scalar key below `node` with its default, as key lists. */
function scalarKeys(node: unknown, keys: readonly string[] = []): { keys: readonly string[]; fallback: unknown }[] {
  if (typeof node !== 'object' || node === null) return [{ keys, fallback: node }];
  if (Array.isArray(node)) return [];
  return Object.entries(node).flatMap(([key, child]) =>
    keys.length === 0 && NOT_FROM_ENV.has(key) ? [] : scalarKeys(child, [...keys, key]));
}

/**
 * The text of a variable as the type its key has in the defaults: numbers as numbers, true/false as
 * booleans, "" as null for keys whose default is null. Text that is none of these stays text, so
 * validation reports it with the key path ("must be an integer 0..65535, got "abc"").
 */
function typed(text: string, fallback: unknown): unknown {
  if (typeof fallback === 'number') return NUMBER_SYNTAX.test(text) ? Number(text) : text;
  if (typeof fallback === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (fallback === null && text === '') return null;
  return text;
}

/** The overrides present in `env`; an unknown `TAS_` variable stops start-up, as an unknown key does. */
export function envOverrides(defaults: unknown, env: NodeJS.ProcessEnv): EnvOverride[] {
  const known = new Map(scalarKeys(defaults).map((k) => [variableOf(k.keys), k]));
  const overrides: EnvOverride[] = [];
  for (const [variable, text] of Object.entries(env)) {
    if (!variable.startsWith(PREFIX) || text === undefined) continue;
    if ((SOURCE_VARIABLES as readonly string[]).includes(variable) || variable === FAULTS_VARIABLE) continue;
    const key = known.get(variable);
    if (!key) {
      throw new ConfigError('config', null,
        `unknown environment variable ${variable} (TAS_<KEY> sets a scalar key; see docs/configuration.md)`);
    }
    overrides.push({ variable, keys: key.keys, value: typed(text, key.fallback) });
  }
  return overrides;
}
