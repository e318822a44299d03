// The compiled `tas` CLI (dist/src/cli/tas.js) against a live server: key lifecycle, kill switch,
// webhooks, quotes, orders and the audit log over the console's JSON API with the operator
// token; API refusals exit 1 with the error, usage errors 2, an unreachable console 3.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RestClient } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { CONSOLE_CONFIG, consoleSeed, login } from './support/console.js';
import { decodeBlocks } from './support/qr.js';
import { TotpDevice } from './support/totp.js';

const TAS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/src/cli/tas.js');

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG }); });
afterAll(async () => { await server.stop(); });

interface Run { readonly code: number; readonly stdout: string; readonly stderr: string }

function tas(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [TAS, ...args], { env: { PATH: process.env['PATH'] ?? '', TAS_CONSOLE_URL: server.console, TAS_ADMIN_TOKEN: server.adminToken, ...env } }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, stdout, stderr });
    });
  });
}

async function json(args: readonly string[]): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the API's JSON
  const run = await tas(['--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe('tas CLI', () => {
  it('creates a key whose secret signs REST calls, lists it, pauses (401), resumes and revokes it', async () => {
    const key = await json(['keys', 'create', '--login', '700001', '--name', 'cli bot', '--scopes', 'read,trade', '--rate-limit', '50', '--ip', '127.0.0.1', '--expires', '2099-01-01T00:00:00Z']);
    expect(key).toMatchObject({ name: 'cli bot', login: '700001', scopes: ['read', 'trade'], rate_limit: 50, ip_whitelist: ['127.0.0.1'], status: 'Active' });
    const api = new RestClient(server.httpPort, { id: key.id, secret: key.secret });
    expect((await api.get('/v1/accounts')).status).toBe(200);

    const list = await tas(['keys', 'list', '--login', '700001']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ACCOUNT\s+SCOPES\s+RATE\s+STATUS/);
    expect(lines.find((l) => l.startsWith(key.id))).toMatch(/cli bot\s+700001 demo demo\\standard\s+read,trade\s+50\/s\s+Active/);
    expect(list.stdout).not.toContain(key.secret);

    expect((await json(['keys', 'pause', key.id])).status).toBe('Paused');
    expect((await api.get('/v1/accounts')).status).toBe(401);
    expect((await json(['keys', 'resume', key.id])).status).toBe('Active');
    expect((await json(['keys', 'stats', key.id])).requests).toBe(2);
    expect((await json(['keys', 'kill-switch', key.id, 'on'])).kill_switch).toEqual({ active: true });
    expect((await json(['keys', 'kill-switch', key.id, 'off'])).kill_switch).toEqual({ active: false });
    expect((await json(['keys', 'revoke', key.id])).status).toBe('Revoked');
    expect((await api.get('/v1/accounts')).status).toBe(401);
    expect((await json(['keys', 'list'])).data.map((k: { id: string }) => k.id)).not.toContain(key.id);
  });

  it('pushes quotes, places orders, and triggers and resets a kill switch', async () => {
    expect(await json(['quotes', 'push', 'EURUSD', '1.2', '1.2002'])).toMatchObject({ symbol: 'EURUSD', bid: 1.2, ask: 1.2002 });
    const order = await json(['orders', 'place', '--login', '700002', '--symbol', 'EURUSD', '--side', 'buy', '--volume', '0.1', '--source', 'strategy']);
    expect(order).toMatchObject({ status: 'filled', price: 1.2002, source: 'strategy', volume: 0.1 });
    expect((await json(['kill-switch', 'status', 'alice'])).state).toBe('Armed');
    const report = await json(['kill-switch', 'trigger', 'alice']);
    expect(report).toMatchObject({ state: 'Triggered', paused_webhooks: ['wh-alice'] });
    expect(report.closed.map((c: { ticket: number }) => c.ticket)).toEqual([order.ticket]);
    expect((await json(['kill-switch', 'reset', 'alice'])).state).toBe('Armed');
    expect((await json(['kill-switch', 'history', 'alice', '--limit', '5'])).data.map((e: { action: string }) => e.action)).toEqual(['reset', 'trigger']);
    expect((await json(['accounts', 'kill-switch', '700003', 'on'])).active).toBe(true);
    const accounts = await tas(['accounts', 'list']);
    expect(accounts.stdout).toMatch(/700003\s+alice\s+live\s+real\\Pro\s+40000 USD\s+40000 USD\s+halted\s+Armed/);
  });

  it('manages webhooks and shows their signal log', async () => {
    const hook = await json(['webhooks', 'create', '--user', 'alice', '--id', 'wh-cli', '--symbols', 'EURUSD', '--target', '700001:fixed:0.02', '--target', '700002:multiplier:2']);
    expect(hook).toMatchObject({ id: 'wh-cli', targets: [{ login: '700001', sizing: { type: 'fixed', lots: 0.02 } }, { login: '700002', sizing: { type: 'multiplier', factor: 2 } }] });
    expect(hook.secret).toEqual(expect.any(String));
    expect((await json(['webhooks', 'edit', 'wh-cli', '--target', '700003:risk_percent:1'])).targets).toEqual([{ login: '700003', sizing: { type: 'risk_percent', percent: 1 } }]);
    expect((await json(['webhooks', 'pause', 'wh-cli'])).paused).toBe(true);
    expect((await json(['webhooks', 'resume', 'wh-cli'])).paused).toBe(false);
    const rotated = await json(['webhooks', 'rotate-secret', 'wh-cli']);
    expect(rotated.secret).not.toBe(hook.secret);
    const list = await tas(['webhooks', 'list']);
    expect(list.stdout).toMatch(/wh-cli\s+alice\s+EURUSD\s+700003:risk_percent\s+active/);
    expect((await json(['webhooks', 'signals', 'wh-cli'])).data).toEqual([]);
  });

  it('creates a user: the QR code it prints decodes to the otpauth URI, whose secret signs the user in', async () => {
    const run = await tas(['users', 'create', 'judy']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('user judy created');
    const password = /^password: (\S+) {3}\(generated; shown this once\)$/.exec(lines[1]!)![1]!;
    const uri = /^otpauth URI: (otpauth:\/\/totp\/TAS:judy\?secret=([A-Z2-7]{32})&issuer=TAS&algorithm=SHA1&digits=6&period=30)$/.exec(lines.find((l) => l.startsWith('otpauth URI: '))!)!;
    // The block characters between the heading and the URI are the QR code, as a phone reads it.
    const qr = lines.slice(lines.findIndex((l) => l.startsWith('scan with')) + 1, lines.findIndex((l) => l.startsWith('otpauth URI: ')));
    expect(qr.length).toBeGreaterThan(10);
    expect(decodeBlocks(qr)).toBe(uri[1]);
    expect(lines.find((l) => l.startsWith('secret'))).toContain(uri[2]);
    await login(server.consolePort, { id: 'judy', password, device: new TotpDevice(uri[2]!) });
    expect((await json(['users', 'list'])).data.map((u: { id: string }) => u.id)).toContain('judy');
    const again = await tas(['users', 'create', 'judy', '--password', 'another long password']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/400 bad_request: user judy already exists \(field id\)/);
    expect((await tas(['users', 'create', 'kim', '--password', 'short'])).stderr).toMatch(/400 bad_request: password: must be 12\.\.256 characters/);
  });

  it('shows an account with its positions and orders, quotes with sessions, and a key over time', async () => {
    const order = await json(['orders', 'place', '--login', '700001', '--symbol', 'EURUSD', '--side', 'sell', '--volume', '0.03']);
    const shown = await tas(['accounts', 'show', '700001']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^700001 {2}demo demo\\standard {2}Demo-1 {2}1:100\nbalance [\d.]+ USD {2}equity [\d.]+ USD/);
    expect(shown.stdout).toMatch(new RegExp(`${order.ticket}\\s+EURUSD\\s+sell\\s+0\\.03\\s+[\\d.]+\\s+[\\d.]+\\s+-?[\\d.]+ USD\\s+manual\\s+-`));
    expect((await tas(['quotes', 'list'])).stdout).toMatch(/EURUSD\s+[\d.]+\s+[\d.]+\s+open\s+24x7/);
    expect((await json(['accounts', 'equity', '700001', '--range', '1h'])).step_s).toBe(60);
    expect((await json(['keys', 'series', 'k-alice', '--step', '1m'])).step_s).toBe(60);
  });

  it('shows the audit log of what it did', async () => {
    const run = await tas(['audit', '--limit', '3']);
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^SEQ\s+AT\s+ACTOR\s+IP\s+ACTION/);
    expect(rows[1]).toMatch(/operator\s+127\.0\.0\.1\s+order\.place\s+700001\s+ok 200/);
    expect(rows.at(-1)).toMatch(/^\(more: --cursor \d+\)$/);
    expect((await json(['routes'])).data.length).toBeGreaterThan(20);
  });

  it('exits 1 with the API error, 2 on usage errors, 3 when the console is unreachable', async () => {
    const refused = await tas(['keys', 'pause', 'nope']);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^tas: 404 not_found: key "nope" not found/);
    const scope = await tas(['keys', 'create', '--login', '700001', '--name', 'x', '--scopes', 'read,withdraw']);
    expect(scope.code).toBe(1);
    expect(scope.stderr).toMatch(/400 bad_request: scopes\[1\]: .*there is no withdraw scope.*\(field scopes\[1\]\)/);
    const asJson = await tas(['--json', 'keys', 'show', 'nope']);
    expect(JSON.parse(asJson.stdout).error).toMatchObject({ code: 404, name: 'not_found' });

    for (const args of [['keys'], ['keys', 'frobnicate'], ['keys', 'pause'], ['keys', 'list', '--bogus'], ['keys', 'kill-switch', 'k', 'maybe'], ['quotes', 'push', 'EURUSD', 'x', '1'], ['keys', 'pause', 'a', 'b']]) {
      const run = await tas(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(/^tas: /);
    }
    expect((await tas(['keys', 'list'], { TAS_ADMIN_TOKEN: '' })).stderr).toMatch(/no operator token/);
    const wrongToken = await tas(['keys', 'list', '--token', 'wrong-token-0123456789']);
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toMatch(/401 unauthorized/);
    const help = await tas(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/tas keys create .*--login X/);
    const away = await tas(['keys', 'list', '--url', 'http://127.0.0.1:9']);
    expect(away.code).toBe(3);
    expect(away.stderr).toMatch(/cannot reach the console at http:\/\/127\.0\.0\.1:9/);
  });
});
