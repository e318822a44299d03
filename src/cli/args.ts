// The command line of `tas`: global options, the command words, positional arguments and the
// command's options (`--name value`, `--name=value`, repeatable lists, flags). Anything unknown is
// a usage error naming it, so a typo never runs a different call.

export type OptionKind = 'value' | 'list' | 'flag';

export interface Parsed {
  readonly positional: readonly string[];
  readonly values: ReadonlyMap<string, string>;
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly flags: ReadonlySet<string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], options: Readonly<Record<string, OptionKind>>): Parsed {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') { positional.push(...argv.slice(i + 1)); break; }
    if (!arg.startsWith('--') || arg === '--') { positional.push(arg); continue; }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = options[name];
    if (kind === undefined) throw new UsageError(`unknown option --${name}`);
    if (kind === 'flag') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.add(name);
      continue;
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    if (kind === 'list') lists.set(name, [...(lists.get(name) ?? []), value]);
    else if (values.has(name)) throw new UsageError(`--${name} given twice`);
    else values.set(name, value);
  }
  return { positional, values, lists, flags };
}

/** A number option, or undefined when absent; anything not a finite number is a usage error. */
export function numberOption(p: Parsed, name: string): number | undefined {
  const text = p.values.get(name);
  if (text === undefined) return undefined;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(text)}`);
  return n;
}

export function requireOption(p: Parsed, name: string): string {
  const value = p.values.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}
