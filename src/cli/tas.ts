#!/usr/bin/env node
// `tas`: the management console for operators and scripts, over the console's JSON API with the
// operator token (docs/console.md). `--url` / TAS_CONSOLE_URL and `--token` / TAS_ADMIN_TOKEN say
// where and who; `--json` prints the API's answers as JSON. Exit codes: 0 done, 1 the API refused
// (the error is printed), 2 usage error, 3 the console could not be reached.
import { parseArgs, UsageError, type Parsed } from './args.js';
import { ApiCallError, ConsoleClient } from './client.js';
import { COMMANDS, type CliCommand } from './commands.js';
import { packageVersion } from '../config/load.js';

const DEFAULT_URL = 'http://127.0.0.1:8081';

interface Globals { readonly url: string; readonly token: string | null; readonly json: boolean; readonly help: boolean; readonly version: boolean; readonly rest: string[] }

/** The global options, wherever they stand; no command has options of these names. */
function globals(argv: readonly string[], env: NodeJS.ProcessEnv): Globals {
  let url = env['TAS_CONSOLE_URL'] ?? DEFAULT_URL;
  let token = env['TAS_ADMIN_TOKEN'] ?? null;
  let json = false;
  let help = false;
  let version = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--url' || name === '--token') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      if (name === '--url') url = value;
      else token = value;
    } else if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h' || arg === 'help') help = true;
    else if (arg === '--version' || arg === '-V') version = true;
    else rest.push(arg);
  }
  return { url, token, json, help, version, rest };
}

function usage(): string {
  const lines = COMMANDS.map((c) => {
    const options = Object.entries(c.options).map(([name, kind]) => (kind === 'flag' ? `[--${name}]` : kind === 'list' ? `[--${name} X]...` : `[--${name} X]`));
    return `  tas ${[...c.words, ...c.args, ...options].join(' ')}\n      ${c.summary}`;
  });
  return [
    'usage: tas [--url URL] [--token TOKEN] [--json] COMMAND ...',
    `  --url    console address (TAS_CONSOLE_URL, default ${DEFAULT_URL})`,
    '  --token  operator token (TAS_ADMIN_TOKEN; unless configured, the server keeps it in <data_dir>/admin_token)',
    '  --json   print the API\'s JSON answers',
    '  --help   this text; --version: the version of tas',
    '',
    'commands:',
    ...lines,
  ].join('\n');
}

function find(words: readonly string[]): { command: CliCommand; rest: string[] } {
  const matches = COMMANDS.filter((c) => c.words.every((w, i) => words[i] === w));
  const command = matches.sort((a, b) => b.words.length - a.words.length)[0];
  if (command === undefined) throw new UsageError(words.length === 0 ? 'no command given' : `unknown command "${words.slice(0, 2).join(' ')}"`);
  return { command, rest: words.slice(command.words.length) };
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  let g: Globals;
  let command: CliCommand;
  let parsed: Parsed;
  try {
    g = globals(argv, process.env);
    if (g.help) { process.stdout.write(`${usage()}\n`); return 0; }
    if (g.version) { process.stdout.write(`tas ${packageVersion()}\n`); return 0; }
    const found = find(g.rest);
    command = found.command;
    parsed = parseArgs(found.rest, command.options);
    if (parsed.positional.length > command.args.length) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positional[command.args.length])}`);
    if (g.token === null || g.token === '') throw new UsageError('no operator token: pass --token or set TAS_ADMIN_TOKEN');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`tas: ${err.message}\n\n${usage()}\n`);
    return 2;
  }
  try {
    const answer = await command.run(new ConsoleClient(g.url, g.token), parsed);
    if (answer.text !== undefined && !g.json) process.stdout.write(`${answer.text}\n`);
    else print(answer.json);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) { process.stderr.write(`tas: ${err.message}\n`); return 2; }
    if (err instanceof ApiCallError) {
      if (g.json) print({ error: { code: err.status, name: err.errorName, message: err.message, field: err.field, request_id: err.requestId } });
      process.stderr.write(`tas: ${err.status} ${err.errorName}: ${err.message}${err.field === undefined ? '' : ` (field ${err.field})`}\n`);
      return 1;
    }
    // fetch's own failure: no connection (refused, unknown host, reset), with the reason as its cause.
    if (err instanceof TypeError && err.message === 'fetch failed') {
      process.stderr.write(`tas: cannot reach the console at ${g.url}: ${err.cause instanceof Error ? err.cause.message : 'connection failed'}\n`);
      return 3;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`tas: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exitCode = 1;
});
