// Shared by the config tests: the shipped defaults as raw JSON, and a copy with one value changed.
import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG_FILE } from '../../src/config/load.js';

export type Raw = Record<string, unknown>;

export function defaultsRaw(): Raw {
  return JSON.parse(readFileSync(DEFAULT_CONFIG_FILE, 'utf8')) as Raw;
}

/** `path` as the errors write it ("accounts[2].leverage") split into keys and indices. */
function steps(path: string): (string | number)[] {
  return path.split('.').flatMap((part) => {
    const [key, ...indices] = part.split('[');
    return [...(key === '' ? [] : [key!]), ...indices.map((i) => Number(i.slice(0, -1)))];
  });
}

/** A deep copy of `doc` with the value at `path` set (or deleted when `value` is undefined). */
export function withValue(doc: unknown, path: string, value: unknown): Raw {
  const copy = structuredClone(doc) as Raw;
  const keys = steps(path);
  let node = copy as Record<string | number, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
