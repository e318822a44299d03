// README's SDK example (examples/sdk.ts, compiled to dist/examples/sdk.js) run as a user runs it,
// against the service on the demo fixture: it must do what it prints and end by itself.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, 'dist/examples/sdk.js');

let server: RunningServer;
beforeAll(async () => { server = await startServer(); });
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('README SDK example', () => {
  it('trades, reads back and exits 0 on its own', async () => {
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [EXAMPLE], { timeout: 20_000, env: { PATH: process.env['PATH'] ?? '', TAS_URL: server.http } }, (err, stdout, stderr) => {
        resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : null, stdout, stderr });
      });
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^clock offset to the server -?\d+ ms$/m);
    expect(run.stdout).toMatch(/^BTCUSD 2 digits, lots 0.01 to \d+ open$/m);
    expect(run.stdout).toMatch(/^filled at \d+(\.\d+)? ticket \d+$/m);
    expect(run.stdout).toMatch(/^stream saw order \d+ filled seq \d+$/m);
    expect(run.stdout).toMatch(/^read back filled \| pending orders: 0$/m);
    expect(run.stdout).toMatch(/^closed at \d+(\.\d+)? profit -?\d+(\.\d+)?$/m);
  });
});
