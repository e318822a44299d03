// Which uWebSockets.js build the service runs on (src/gateway/uws.ts): the newer uWS 20.57 where it
// loads (Node 20/22/24/25, glibc >= 2.38), uWS 20.30 where it does not (Node 20), and a refusal at
// start, before any listener or data file exists, where neither does. The expectations are computed
// from the machine the tests run on: on Debian 12 (glibc 2.36), Node 20 runs on 20.30 and Node 22
// (a real Node 22 binary from the registry) is refused; on a newer system both run on 20.57.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RestClient, send } from '../rest/support/client.js';
import { nodeRelease } from '../support/node-release.js';
import { MAIN_JS, startServer, tempDir } from '../support/server.js';

const NODE_22 = '22.23.3';
const TAS_CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/cli/tas.js');
const VERSION = (JSON.parse(fs.readFileSync(path.resolve(path.dirname(MAIN_JS), '../../package.json'), 'utf8')) as { version: string }).version;

const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime ?? null;
const glibcAtLeast = (major: number, minor: number): boolean => {
  if (glibc === null) return false;
  const [a, b] = glibc.split('.').map(Number) as [number, number];
  return a > major || (a === major && b >= minor);
};

/** The build the loader must choose for a Node ABI on this machine (x64/arm64 Linux). */
function expectedBuild(abi: string): 'uWS 20.57' | 'uWS 20.30' | 'refused' {
  if (['115', '127', '137', '141'].includes(abi) && glibcAtLeast(2, 38)) return 'uWS 20.57';
  if (['93', '108', '115'].includes(abi) && glibcAtLeast(2, 27)) return 'uWS 20.30';
  return 'refused';
}

interface Run { readonly code: number | null; readonly stdout: string; readonly stderr: string }

function run(node: string, args: readonly string[], timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(node, args, { timeout: timeoutMs, env: { PATH: process.env['PATH'] ?? '' } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
    });
  });
}

async function servesSignedCalls(http: number): Promise<void> {
  expect((await send(http, 'GET', '/health')).status).toBe(200);
  // The demo fixture's read key (config/default.json).
  const seed = (JSON.parse(fs.readFileSync(path.resolve(path.dirname(MAIN_JS), '../../config/default.json'), 'utf8')) as { seed: { keys: { id: string; secret: string }[] } }).seed;
  const answer = await new RestClient(http, seed.keys[0]!).get('/v1/accounts');
  expect(answer.status).toBe(200);
}

describe('uWebSockets.js build', () => {
  it(`runs Node ${process.version} on the build the loader prefers and says which at start`, async () => {
    const expected = expectedBuild(process.versions.modules);
    expect(expected).not.toBe('refused');
    const server = await startServer();
    try {
      const line = await server.waitForLog((l) => l.msg === 'uWebSockets.js binding');
      expect(line['build']).toMatch(new RegExp(`^${expected}`));
      expect(line['glibc']).toBe(glibc);
      const refused = line['refused'] as { build: string; reason: string }[];
      if (expected === 'uWS 20.30') expect(refused).toEqual([{ build: 'uWS 20.57', reason: expect.stringContaining('GLIBC_2.38') }]);
      else expect(refused).toEqual([]);
      expect((await server.waitForLog((l) => l.msg === 'ready'))['uws']).toBe(line['build']);
      await servesSignedCalls(server.httpPort);
    } finally {
      await server.stop();
    }
  });

  it(`Node ${NODE_22}: refused at start with what to install where no build loads, served where one does`, async () => {
    const node22 = nodeRelease(NODE_22);
    const expected = expectedBuild('127');
    if (expected === 'refused') {
      const dataDir = path.join(tempDir(), 'data');
      const started = await run(node22, [MAIN_JS, '--data', dataDir]);
      expect(started.code).toBe(3);
      expect(started.stdout).toBe('');
      expect(started.stderr).toContain(`no native uWebSockets.js build loads on Node v${NODE_22} (ABI 127)`);
      expect(started.stderr).toContain(`glibc ${glibc}`);
      expect(started.stderr).toContain('uWS 20.57: ');
      expect(started.stderr).toContain('uWS 20.30: no build for');
      expect(started.stderr).toMatch(/Install one of:\n {2}- Node 20, 22, 24, 25 \(glibc 2\.38 or newer on Linux\)/);
      // Refused before anything started: not even the data directory exists.
      expect(fs.existsSync(dataDir)).toBe(false);
      const version = await run(node22, [MAIN_JS, '--version']);
      expect(version).toMatchObject({ code: 0, stdout: expect.stringContaining('no native build loads') });
      return;
    }
    const server = await startServer({ node: node22 });
    try {
      expect((await server.waitForLog((l) => l.msg === 'ready'))['uws']).toMatch(/^uWS 20\.57/);
      await servesSignedCalls(server.httpPort);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('--help and --version', () => {
  it('the server prints its usage and versions, and exits 0 without starting', async () => {
    const help = await run(process.execPath, [MAIN_JS, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: node dist\/src\/main\.js \[--config FILE\] \[--seed FILE\] \[--data DIR\]/);
    for (const flag of ['--config FILE', '--seed FILE', '--data DIR', '--version']) expect(help.stdout).toContain(flag);
    const version = await run(process.execPath, [MAIN_JS, '--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`tas ${VERSION}\nnode ${process.version}\nuWebSockets.js ${expectedBuild(process.versions.modules)} (${expectedBuild(process.versions.modules) === 'uWS 20.57' ? '@btc-vision/uwebsockets.js@20.57.0' : '@trufflesuite/uws-js-unofficial@20.30.0-unofficial.0'})\n`);
  });

  it('the CLI prints its usage and version without a token or a console', async () => {
    const help = await run(process.execPath, [TAS_CLI, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: tas /);
    expect(help.stdout).toContain('--version');
    const version = await run(process.execPath, [TAS_CLI, '--version']);
    expect(version).toEqual({ code: 0, stdout: `tas ${VERSION}\n`, stderr: '' });
  });
});
