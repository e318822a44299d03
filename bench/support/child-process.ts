// Benchmarks' servers as child processes: the compiled service (dist/src/main.js) on a temp data
// dir with a fixture, or any compiled script that prints its port; each until its ready line.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuMsOf } from './thread-cpu.js';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN_JS = path.join(DIST, 'src/main.js');

export interface ChildServer {
  readonly child: ChildProcess;
  /** The parsed ready line. */
  readonly ready: Record<string, unknown>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  /** Node's own flags, before the script (e.g. `--import` of a probe). */
  readonly nodeArgs?: readonly string[];
  /** Every stdout JSON line after the ready one. */
  readonly onLine?: (line: Record<string, unknown>) => void;
}

/** Spawns `node script args` and resolves with the first stdout JSON line `isReady` accepts. */
export function startChild(
  script: string, args: readonly string[], isReady: (line: Record<string, unknown>) => boolean, opts: ChildOptions = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...opts.nodeArgs ?? [], script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  // A bench that dies must not leave its server running.
  const orphanGuard = (): void => { child.kill('SIGKILL'); };
  process.on('exit', orphanGuard);
  const exited = new Promise<void>((resolve) => child.on('exit', () => { process.off('exit', orphanGuard); resolve(); }));
  let ready = false;
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code}) before it was ready`)));
    readline.createInterface({ input: child.stdout! }).on('line', (text) => {
      let line: Record<string, unknown>;
      try { line = JSON.parse(text) as Record<string, unknown>; } catch { return; }
      if (ready) { opts.onLine?.(line); return; }
      if (!isReady(line)) return;
      ready = true;
      resolve({ child, ready: line, stop: async () => { child.kill('SIGTERM'); await exited; } });
    });
  });
}

export interface ServiceProcess extends ChildServer {
  readonly httpPort: number;
  readonly consolePort: number;
  readonly dataDir: string;
}

/** The service on free ports with `config` merged over the defaults and `seed` as its fixture. */
export async function startService(work: string, config: Record<string, unknown>, seed: Record<string, unknown>, opts: ChildOptions = {}): Promise<ServiceProcess> {
  const dataDir = path.join(work, 'data');
  const configFile = path.join(work, 'config.json');
  const seedFile = path.join(work, 'seed.json');
  fs.writeFileSync(configFile, JSON.stringify({ http: { port: 0 }, console: { port: 0 }, fix: { port: 0 }, ...config }));
  fs.writeFileSync(seedFile, JSON.stringify(seed));
  const server = await startChild(MAIN_JS, ['--config', configFile, '--seed', seedFile, '--data', dataDir], (l) => l['msg'] === 'ready', opts);
  const ports = server.ready['ports'] as { http: number; console: number };
  return { ...server, httpPort: ports.http, consolePort: ports.console, dataDir };
}


/**
 * CPU time (user + system, ms) a process's main thread has used (Linux /proc): what a server
 * spends per request, whatever else shares the machine.
 */
export const mainThreadCpuMs = (pid: number): number => cpuMsOf(`/proc/${pid}/task/${pid}/stat`);

/** The same for all of a process's threads (the service's shards and LMDB's included). */
export const processCpuMs = (pid: number): number => cpuMsOf(`/proc/${pid}/stat`);
