// The console's web page in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core):
// log in with password + TOTP, create a key and sign a REST call with its one-time secret, pause it
// and see 401, trigger the kill switch and see the bot's position close, reset it with a fresh
// code. The key list is saved as a screenshot (CONSOLE_SCREENSHOT, default /work/console-keys.png
// when /work exists). Chromium missing is a failure, never a skip: `.ci/run` installs it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { ALICE_KEY, CONSOLE_CONFIG, consoleSeed, SECRETS, user } from './support/console.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SCREENSHOT = process.env['CONSOLE_SCREENSHOT'] ?? (fs.existsSync('/work') ? '/work/console-keys.png' : path.join(os.tmpdir(), 'console-keys.png'));

let server: RunningServer;
let context: BrowserContext;
let page: Page;
let profile: string;
const alice = user('alice', SECRETS.alice);
const created = { id: '', secret: '' };
let botTicket = 0;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: install it with "apt-get install -y chromium" (the browser tests never skip)`);
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1480, height: 760 } });
  page = context.pages()[0] ?? await context.newPage();
  page.on('pageerror', (err) => { pageErrors.push(err.message); });
});
afterAll(async () => {
  await context?.close();
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
  await server?.stop();
});

const rowOf = (id: string) => page.locator(`#keys-table tr[data-key="${id}"]`);

describe('console web page', { timeout: 60_000 }, () => {
  it('logs in with password and TOTP', async () => {
    await page.goto(`${server.console}/console`);
    await page.locator('#login-view').waitFor();
    // A wrong code is refused on the page, and the form stays.
    await page.fill('#login-user', 'alice');
    await page.fill('#login-password', alice.password);
    await page.fill('#login-totp', '000000');
    await page.click('#login-form button[type=submit]');
    await expect.poll(() => page.locator('#login-error').textContent()).toMatch(/login refused/);
    await page.fill('#login-totp', await alice.device.fresh());
    await page.click('#login-form button[type=submit]');
    await page.locator(`#keys-table tr[data-key="${ALICE_KEY.id}"]`).waitFor();
    expect(await page.locator('#user-name').textContent()).toBe('alice');
    expect(await page.locator('#ks-pill').textContent()).toBe('ARMED');
    // The session cookie is HttpOnly: the page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('creates a key (fresh TOTP) whose one-time secret signs a REST call', async () => {
    await page.click('#key-new');
    await page.fill('#key-form [name=name]', 'scalper EURUSD');
    await page.selectOption('#key-login', '700001');
    await page.check('#key-form input[name=scope][value=trade]');
    await page.selectOption('#key-rate', '50');
    await page.fill('#key-form [name=ip_whitelist]', '127.0.0.1\n10.0.0.0/8');
    await page.fill('#key-form [name=totp]', await alice.device.fresh());
    await page.click('#key-form button[type=submit]');
    await page.locator('#secret-dialog[open]').waitFor();
    created.id = await page.inputValue('#secret-id');
    created.secret = await page.inputValue('#secret-value');
    expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.click('#secret-done');
    await rowOf(created.id).waitFor();
    // Closed: the page keeps no copy of the secret.
    expect(await page.inputValue('#secret-value')).toBe('');
    expect(await page.content()).not.toContain(created.secret);

    const api = new RestClient(server.httpPort, created);
    expect((await api.get('/v1/accounts/700001')).status).toBe(200);
    const order = await api.post('/v1/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.02 });
    expect(order.status, order.text).toBe(200);
    botTicket = order.body.ticket;
    for (let i = 0; i < 5; i++) expect((await api.get('/v1/positions?login=700001')).status).toBe(200);
    expect((await api.get('/v1/accounts/700002')).status).toBe(404);
  });

  it('pauses the key (its calls get 401) and shows the key list with statistics and advisories', async () => {
    await page.click('#keys-refresh');
    await expect.poll(() => rowOf(created.id).locator('td.num .requests').textContent()).toBe('8');
    await rowOf(created.id).getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => rowOf(created.id).locator('td').nth(6).textContent()).toContain('Paused');
    const res = await new RestClient(server.httpPort, created).get('/v1/accounts/700001');
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/paused/);

    const seeded = rowOf(ALICE_KEY.id);
    expect(await seeded.locator('td').nth(7).textContent()).toBe('no expiryno IP whitelist');
    expect(await rowOf('k-old').locator('td').nth(6).textContent()).toBe('Expired');
    const row = await rowOf(created.id).locator('td').allTextContents();
    expect(row.slice(1, 9)).toEqual(['700001demodemo\\standard', 'readtrade', '50/s', expect.stringMatching(/127\.0\.0\.1$/), expect.any(String), 'Paused', 'none', '812.5% errors']);
    expect(row[9]).toMatch(/^[\d.]+ ms[\d.]+ ms$/);
    await rowOf(created.id).getByRole('button', { name: 'Stats' }).click();
    const detail = await page.locator(`#keys-table tr[data-key="${created.id}"] + tr.detail`).textContent();
    expect(detail).toMatch(/GET \/v1\/positions · 5/);
    expect(detail).toMatch(/not_found · 1/);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(fs.statSync(SCREENSHOT).size).toBeGreaterThan(10_000);
    await rowOf(created.id).getByRole('button', { name: 'Stats' }).click();
  });

  it('shows names as text, never as markup', async () => {
    const res = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/keys', {
      name: '<img src=x id=xss onerror="document.title=1">', login: '700001', scopes: ['read'], rate_limit: 10, expires_at: null, ip_whitelist: [],
    });
    expect(res.status).toBe(201);
    await page.click('#keys-refresh');
    await rowOf(res.body.id).waitFor();
    expect(await page.locator('#xss').count()).toBe(0);
    expect(await rowOf(res.body.id).locator('.cell-title').first().textContent()).toBe('<img src=x id=xss onerror="document.title=1">');
  });

  it('triggers the kill switch: the bot position closes and the report says so; a fresh code resets it', async () => {
    const manual = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, source: 'manual' });
    expect(manual.status).toBe(200);
    await page.click('#nav a[data-view=kill-switch]');
    await page.locator('#accounts-table tr[data-login="700001"]').waitFor();
    expect(await page.locator('#ks-state').textContent()).toBe('ARMED');
    await page.click('#ks-trigger');
    await page.locator('#confirm-dialog[open]').waitFor();
    await page.click('#confirm-ok');
    await page.locator('#ks-report:not([hidden])').waitFor();
    expect(await page.locator('#ks-state').textContent()).toBe('TRIGGERED');
    expect(await page.locator('#ks-pill').textContent()).toBe('KILL SWITCH TRIGGERED');
    const report = await page.locator('#ks-report').textContent();
    expect(report).toMatch(/1 closed/);
    expect(report).toContain(String(botTicket));

    const open = await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001');
    expect(open.body.data.map((p: { ticket: number }) => p.ticket)).toEqual([manual.body.ticket]);
    await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-kill-switch.png'), fullPage: true });

    await page.fill('#ks-reset-totp', await alice.device.fresh());
    await page.click('#ks-reset-form button[type=submit]');
    await expect.poll(() => page.locator('#ks-state').textContent()).toBe('ARMED');
    expect(await page.locator('#ks-history tbody tr').count()).toBe(2);
  });

  it('logs out: the session ends on the server', async () => {
    await page.click('#logout');
    await page.locator('#login-view').waitFor();
    const cookies = await context.cookies(server.console);
    expect(cookies.filter((c) => c.name === 'tas_session')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
