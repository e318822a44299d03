// Starts the real service (compiled dist/src/main.js) as a child process on free loopback ports
// and a temp data dir, and waits for its `ready` log line. Tests talk to it over real sockets.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN_JS = path.join(ROOT, 'dist/src/main.js');
/**
 * The shard count a test server runs with unless its config says otherwise: two, so the tests
 * cross shards (the service's own default, config/default.json, is one: the 2-core box's best).
 */
export const DEFAULT_SHARDS = 2;

export interface LogLine { readonly level: number; readonly msg: string; readonly [k: string]: unknown }

export interface ServerOptions {
  /** Reuse a data dir (restart tests); a fresh temp dir otherwise. */
  readonly dataDir?: string;
  /** Merged over config/default.json; listener ports default to 0 (any free port). */
  readonly config?: Record<string, unknown>;
  /** A fixture replacing the default demo seed (written to a file and passed with --seed). */
  readonly seed?: Record<string, unknown>;
  readonly env?: Record<string, string>;
  /** The node binary to run the service with; the one running the tests by default. */
  readonly node?: string;
  /** Sees every log line as it comes, before the server is ready too. */
  readonly onLog?: (line: LogLine) => void;
}

export interface RunningServer {
  readonly dataDir: string;
  readonly httpPort: number;
  readonly consolePort: number;
  readonly fixPort: number | null;
  readonly adminToken: string;
  readonly pid: number;
  readonly logs: LogLine[];
  readonly http: string;
  readonly console: string;
  /** Resolves with the first log line matching, already seen or yet to come. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM and wait for a clean exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: no shutdown at all. */
  kill(): Promise<void>;
}

export function tempDir(prefix = 'tas-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789';

/** Free ports, a known operator token and DEFAULT_SHARDS unless the test sets them. */
function withTestDefaults(config: Record<string, unknown>): Record<string, unknown> {
  const section = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> =>
    ({ port: 0, ...extra, ...(config[name] as Record<string, unknown> | undefined) });
  return { shards: DEFAULT_SHARDS, ...config, http: section('http'), console: section('console', { admin_token: TEST_ADMIN_TOKEN }), fix: section('fix') };
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = opts.dataDir ?? tempDir();
  const work = tempDir('tas-cfg-');
  const configFile = path.join(work, 'config.json');
  fs.writeFileSync(configFile, JSON.stringify(withTestDefaults(opts.config ?? {})));
  const args = [MAIN_JS, '--config', configFile, '--data', dataDir];
  if (opts.seed) {
    const seedFile = path.join(work, 'seed.json');
    fs.writeFileSync(seedFile, JSON.stringify(opts.seed));
    args.push('--seed', seedFile);
  }
  const child = spawn(opts.node ?? process.execPath, args, { env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const logs: LogLine[] = [];
  const waiters: { match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: LogLine;
    try { line = JSON.parse(text) as LogLine; } catch { return; }
    logs.push(line);
    opts.onLog?.(line);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i]!.match(line)) { waiters[i]!.resolve(line); waiters.splice(i, 1); }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const waitForLog = (match: (l: LogLine) => boolean, timeoutMs = 20_000): Promise<LogLine> => {
    const seen = logs.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`log line not seen in ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
      waiters.push({ match, resolve: (l) => { clearTimeout(timer); resolve(l); } });
      void exited.then((code) => { clearTimeout(timer); reject(new Error(`server exited (${code}) before the log line; stderr: ${stderr}`)); });
    });
  };

  const ready = await waitForLog((l) => l.msg === 'ready');
  const ports = ready['ports'] as { http: number; console: number; fix?: number };
  const token = ((opts.config?.['console'] as { admin_token?: string } | undefined)?.admin_token) ?? TEST_ADMIN_TOKEN;
  return {
    dataDir,
    httpPort: ports.http,
    consolePort: ports.console,
    fixPort: ports.fix ?? null,
    adminToken: token,
    pid: child.pid!,
    logs,
    http: `http://127.0.0.1:${ports.http}`,
    console: `http://127.0.0.1:${ports.console}`,
    waitForLog,
    stop: async () => { child.kill('SIGTERM'); return exited; },
    kill: async () => { child.kill('SIGKILL'); await exited; },
  };
}

