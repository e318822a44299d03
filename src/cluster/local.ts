// `make cluster`: a local cluster on loopback, three NATS servers (Debian's nats-server) and three
// tas nodes, each with its own data dir under ./data/cluster, the demo fixture and the ports of
// `make run` shifted by 10 per node. Logs are prefixed with the node. Ctrl-C (or SIGTERM) stops
// the tas nodes cleanly, then NATS.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startNatsCluster } from './nats-servers.js';

const NODES = 3;
const PORT_STEP = 10;
const ROOT = path.resolve(process.argv[2] ?? './data/cluster');
const MAIN_JS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'main.js');

function prefixed(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WritableStream): void {
  readline.createInterface({ input: stream }).on('line', (line) => out.write(`${name} | ${line}\n`));
}

async function main(): Promise<void> {
  fs.mkdirSync(ROOT, { recursive: true });
  const nats = await startNatsCluster(path.join(ROOT, 'nats'), NODES, (line) => process.stderr.write(`${line}\n`), true);
  process.stdout.write(`NATS cluster: ${nats.urls.join(', ')}\n`);
  // One master key for every node (they unseal each other's secrets): kept from the first run.
  const keyFile = path.join(ROOT, 'master.key');
  if (!fs.existsSync(keyFile)) fs.writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  const nodes: ChildProcess[] = [];
  for (let i = 0; i < NODES; i++) {
    const name = `n${i + 1}`;
    const dataDir = path.join(ROOT, name);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.copyFileSync(keyFile, path.join(dataDir, 'master.key'));
    const shift = i * PORT_STEP;
    const config = {
      http: { port: 8080 + shift }, console: { port: 8081 + shift }, fix: { port: 9880 + shift },
      cluster: { enabled: true, node_id: name, nats: { servers: nats.urls }, preferred_shards: [i] },
    };
    const configFile = path.join(dataDir, 'cluster-config.json');
    fs.writeFileSync(configFile, JSON.stringify(config, null, 2));
    const child = spawn(process.execPath, [MAIN_JS, '--config', configFile, '--data', dataDir], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    prefixed(name, child.stdout!, process.stdout);
    prefixed(name, child.stderr!, process.stderr);
    process.stdout.write(`${name}: REST http://127.0.0.1:${8080 + shift}/v1, console http://127.0.0.1:${8081 + shift}/console, FIX 127.0.0.1:${9880 + shift}, data ${dataDir}\n`);
    nodes.push(child);
  }
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('stopping the tas nodes, then NATS\n');
    await Promise.all(nodes.map((n) => new Promise<void>((resolve) => {
      if (n.exitCode !== null || n.signalCode !== null) { resolve(); return; }
      n.once('exit', () => resolve());
      n.kill('SIGTERM');
    })));
    await nats.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => { void stop(); });
  process.on('SIGTERM', () => { void stop(); });
  for (const n of nodes) n.once('exit', (code) => { if (!stopping) process.stderr.write(`a tas node exited (${code}); Ctrl-C stops the rest\n`); });
}

main().catch((err: unknown) => {
  process.stderr.write(`make cluster failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
