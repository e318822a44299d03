// A local NATS JetStream cluster of loopback servers (Debian's nats-server), each with its own
// store dir: what `make cluster`, the cluster tests and the cluster bench run tas nodes on.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connectNats } from './nats.js';

/** $NATS_SERVER, else Debian's (in /usr/sbin, which a user's PATH may lack), else the PATH's. */
export const NATS_SERVER_BIN = process.env['NATS_SERVER'] ?? (fs.existsSync('/usr/sbin/nats-server') ? '/usr/sbin/nats-server' : 'nats-server');
const READY_TIMEOUT_MS = 30_000;

export interface NatsServer {
  readonly name: string;
  readonly url: string;
  readonly clientPort: number;
  /** The running process (a new one after startServer). */
  readonly process: ChildProcess;
}

export interface NatsCluster {
  readonly servers: readonly NatsServer[];
  readonly urls: readonly string[];
  /** SIGTERM to server `i`, and waits for it to exit (a cluster with a peer offline). */
  stopServer(i: number): Promise<void>;
  /** Starts stopped server `i` again on its ports and store dir. */
  startServer(i: number): void;
  /** SIGTERM to every server, and waits for them to exit. */
  stop(): Promise<void>;
}

function terminated(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `size` servers in one JetStream cluster under `dir`; resolves once JetStream answers.
 * `detached`: in their own process group, so a terminal's Ctrl-C reaches only the caller, which
 * stops them after the tas nodes.
 */
export async function startNatsCluster(dir: string, size = 3, log: (line: string) => void = () => undefined, detached = false): Promise<NatsCluster> {
  const ports = await Promise.all(Array.from({ length: size * 2 }, freePort));
  const clientPorts = ports.slice(0, size);
  const routePorts = ports.slice(size);
  const routes = routePorts.map((p) => `nats://127.0.0.1:${p}`).join(',');
  const nameOf = (i: number): string => `nats-${i + 1}`;
  const spawnServer = (i: number): ChildProcess => {
    const name = nameOf(i);
    const storeDir = path.join(dir, name);
    fs.mkdirSync(storeDir, { recursive: true });
    const child = spawn(NATS_SERVER_BIN, [
      '-a', '127.0.0.1', '-p', String(clientPorts[i]), '-n', name, '-js', '-sd', storeDir,
      '--cluster_name', 'tas', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes,
    ], { stdio: ['ignore', 'ignore', 'pipe'], detached });
    child.stderr!.on('data', (d: Buffer) => { for (const line of d.toString().split('\n')) if (line.trim() !== '') log(`${name}: ${line}`); });
    return child;
  };
  const servers = clientPorts.map((clientPort, i) => ({ name: nameOf(i), url: `nats://127.0.0.1:${clientPort}`, clientPort, process: spawnServer(i) }));
  const urls = servers.map((s) => s.url);
  const stop = async (): Promise<void> => { await Promise.all(servers.map((s) => terminated(s.process))); };
  try {
    await whenJetStreamReady(urls);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    servers, urls, stop,
    stopServer: (i) => terminated(servers[i]!.process),
    startServer: (i) => {
      const server = servers[i]!;
      if (server.process.exitCode === null && server.process.signalCode === null) throw new Error(`${server.name} is running`);
      server.process = spawnServer(i);
    },
  };
}

async function whenJetStreamReady(urls: readonly string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const nc = await connectNats(urls, 'tas readiness probe');
      try {
        // Answers once the cluster has elected its JetStream meta leader.
        await (await jetstreamManager(nc)).getAccountInfo();
        return;
      } finally {
        await nc.close();
      }
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`the NATS cluster did not start within ${READY_TIMEOUT_MS} ms: ${(err as Error).message}`, { cause: err });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
