/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The console's web page in headless Chromium at desktop width: log in with password + TOTP, create
// a key and sign REST calls with its one-time secret, see its requests, errors and latency drawn
// over time, pause it and see 401; the accounts page with a position's profit moving on a pushed
// quote, manual positions and orders closed and cancelled behind a confirm step (bots' not at
// all), live quotes with their session, the kill switch report unhidden by any notice, a readable
// audit log, and the sign-out. Chromium missing is a failure, never a skip.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { chartText, DESKTOP, inkOf, launch, openPage, type OpenPage } from './support/browser.js';
import { ALICE_KEY, CONSOLE_CONFIG, consoleSeed, SECRETS, user } from './support/console.js';
import { pushQuote, traderDay, type Scene } from './support/scene.js';
import { msLeftInStep } from './support/totp.js';

let server: RunningServer;
let browser: Browser;
let tab: OpenPage;
let page: Page;
let scene: Scene;
const alice = user('alice', SECRETS.alice);
const created = { id: '', secret: '' };
let botTicket = 0;
/** The requests chart's bar colour (charts.js PALETTE[0]). */
const SERIES_BLUE = [3, 105, 161] as const;

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  browser = await launch();
  tab = await openPage(browser, DESKTOP);
  page = tab.page;
});
afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await server?.stop();
});

const rowOf = (id: string) => page.locator(`#keys-table tr[data-key="${id}"]`);
const positionRow = (ticket: number) => page.locator(`#positions-table tr[data-ticket="${ticket}"]`);
const profitOf = async (ticket: number): Promise<number> => Number(await positionRow(ticket).locator('td[data-profit]').getAttribute('data-profit'));

describe('console web page', { timeout: 60_000 }, () => {
  it('logs in with password and TOTP, onto the accounts page', async () => {
    await page.goto(`${server.console}/console`);
    await page.locator('#login-view').waitFor();
    // A wrong code is refused on the page, and the form stays.
    await page.fill('#login-user', 'alice');
    await page.fill('#login-password', alice.password);
    await page.fill('#login-totp', '000000');
    await page.click('#login-form button[type=submit]');
    await expect.poll(() => page.locator('#login-error').textContent()).toMatch(/login refused/);
    // The next test reads the page's "the next code comes in N s" hint, which lasts until the 30 s
    // step of this sign-in ends (by the page's clock, which the server does not set): sign in with
    // at least 10 s of the step left, or a step boundary between the two tests hides the hint.
    if (msLeftInStep() < 10_000) await new Promise((resolve) => setTimeout(resolve, msLeftInStep() + 50));
    await page.fill('#login-totp', await alice.device.fresh());
    await page.click('#login-form button[type=submit]');
    await page.locator('#account-cards .account-card[data-login="700001"]').waitFor();
    expect(await page.locator('#user-name').textContent()).toBe('alice');
    expect(await page.locator('#ks-pill').textContent()).toBe('ARMED');
    expect(await page.locator('#account-cards .account-card').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['login']))).toEqual(['700001', '700002', '700003']);
    expect(await page.locator('#account-cards [data-login="700002"]').textContent()).toContain('60,000.00 USD');
    // The session cookie is HttpOnly: the page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
  });

  it('creates a key (fresh TOTP, the wait for the next code shown) whose one-time secret signs a REST call', async () => {
    await page.click('#nav a[data-view=keys]');
    await rowOf(ALICE_KEY.id).waitFor();
    await page.click('#key-new');
    // The sign-in just spent the current code: the form says when the next one comes.
    await expect.poll(() => page.locator('#key-form .totp-hint').textContent()).toMatch(/the next code comes in \d+ s/);
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
    await expect.poll(() => page.inputValue('#secret-value')).toBe('');
    expect(await page.content()).not.toContain(created.secret);

    const api = new RestClient(server.httpPort, created);
    expect((await api.get('/v1/accounts/700001')).status).toBe(200);
    const order = await api.post('/v1/orders', { login: '700001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.02 });
    expect(order.status, order.text).toBe(200);
    botTicket = order.body.ticket;
    for (let i = 0; i < 5; i++) expect((await api.get('/v1/positions?login=700001')).status).toBe(200);
    expect((await api.get('/v1/accounts/700002')).status).toBe(404);
  });

  it("draws the key's requests, errors by name and latency over time, per key and per endpoint", async () => {
    await page.click('#keys-refresh');
    await expect.poll(() => rowOf(created.id).locator('td.num .requests').textContent()).toBe('8');
    await rowOf(created.id).getByRole('button', { name: 'Charts' }).click();
    await expect.poll(() => page.locator('#chart-requests').getAttribute('data-has-data')).toBe('true');
    expect(await page.locator('#key-charts-title').textContent()).toBe(`scalper EURUSD · ${created.id}`);
    // The last hour in 10 s buckets: 361 points; the bars are drawn in the series colour.
    expect(await page.locator('#chart-requests').getAttribute('data-points')).toBe('361');
    expect(await inkOf(page, '#chart-requests', SERIES_BLUE)).toBeGreaterThan(20);
    const requests = await chartText(page, '#chart-requests');
    expect(requests.series).toEqual(['Time', 'requests']);
    expect(requests.xTicks.length).toBeGreaterThan(2);
    expect(requests.xTicks.every((t) => /\d/.test(t))).toBe(true);
    expect(requests.yTicks.length).toBeGreaterThan(1);
    expect((await chartText(page, '#chart-errors')).series).toEqual(['Time', 'not_found']);
    expect((await chartText(page, '#chart-latency')).series).toEqual(['Time', 'p50', 'p90', 'p99']);
    expect(await page.locator('#chart-latency').getAttribute('data-has-data')).toBe('true');
    const endpoints = await page.locator('#endpoints-table tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)));
    expect(endpoints).toEqual([
      ['GET /v1/positions', '5', '0'],
      ['GET /v1/accounts/{login}', '2', '1 (50.0%)'],
      ['POST /v1/orders', '1', '0'],
    ]);
    expect((await chartText(page, '#chart-endpoints')).series).toEqual(['Time', 'GET /v1/positions', 'GET /v1/accounts/{login}', 'POST /v1/orders']);
    // The last day, per minute: 1441 points, the same requests.
    await page.click('#series-step button[data-step="1m"]');
    await expect.poll(() => page.locator('#chart-requests').getAttribute('data-points')).toBe('1441');
    expect(await page.locator('#chart-requests').getAttribute('data-has-data')).toBe('true');
    await page.click('#series-step button[data-step="10s"]');
  });

  it('pauses the key (its calls get 401) and shows the key list with statistics and advisories', async () => {
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

  it("moves a position's profit on a pushed quote, live, with source and key on every row", async () => {
    scene = await traderDay(server, 3);
    await page.click('#nav a[data-view=accounts]');
    await positionRow(scene.manualTicket).waitFor();
    const before = await profitOf(botTicket);
    const rest = async (): Promise<number> => {
      const open = await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001');
      return open.body.data.find((p: { ticket: number }) => p.ticket === botTicket).profit;
    };
    expect(before).toBe(await rest());
    expect((await pushQuote(server, 1.1051, 1.1053)).status).toBe(200);
    // No click: the page polls, and the profit it shows is the REST API's at the new quote.
    await expect.poll(() => profitOf(botTicket)).not.toBe(before);
    expect(await profitOf(botTicket)).toBe(await rest());
    expect(await profitOf(botTicket)).toBeGreaterThan(before);
    expect(await positionRow(botTicket).locator('td').nth(5).textContent()).toBe('1.1051');
    const bot = await positionRow(scene.botTicket).locator('td').allTextContents();
    expect(bot.slice(8, 10)).toEqual(['api', 'alice bot']);
    expect(await positionRow(scene.manualTicket).locator('td').nth(8).textContent()).toBe('manual');
    expect(await page.locator(`#orders-table tr[data-order="${scene.botOrderId}"] td`).nth(7).textContent()).toBe('alice bot');
    // The equity chart has this account's samples.
    await expect.poll(() => page.locator('#equity-chart').getAttribute('data-has-data')).toBe('true');
    expect((await chartText(page, '#equity-chart')).series).toEqual(['Time', 'Equity', 'Balance']);
  });

  it('closes a manual position and cancels a manual order behind a confirm step; bots keep theirs', async () => {
    // Bots' positions and orders have no buttons here.
    expect(await positionRow(scene.botTicket).getByRole('button').count()).toBe(0);
    expect(await positionRow(botTicket).getByRole('button').count()).toBe(0);
    expect(await page.locator(`#orders-table tr[data-order="${scene.botOrderId}"]`).getByRole('button').count()).toBe(0);
    // Cancel at the confirm step: nothing happens.
    await positionRow(scene.manualTicket).getByRole('button', { name: 'Close' }).click();
    await page.locator('#confirm-dialog[open]').waitFor();
    expect(await page.locator('#confirm-title').textContent()).toBe(`Close position ${scene.manualTicket}?`);
    await page.locator('#confirm-dialog button[value=cancel]').click();
    await page.waitForTimeout(1500);
    expect(await positionRow(scene.manualTicket).count()).toBe(1);
    // Confirmed: closed.
    await positionRow(scene.manualTicket).getByRole('button', { name: 'Close' }).click();
    await page.click('#confirm-ok');
    await expect.poll(() => positionRow(scene.manualTicket).count()).toBe(0);
    await page.locator(`#orders-table tr[data-order="${scene.manualOrderId}"]`).getByRole('button', { name: 'Cancel' }).click();
    await page.click('#confirm-ok');
    await expect.poll(() => page.locator(`#orders-table tr[data-order="${scene.manualOrderId}"]`).count()).toBe(0);
    const open = await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001');
    expect(open.body.data.map((p: { ticket: number }) => p.ticket).sort()).toEqual([botTicket, scene.botTicket].sort());
  });

  it('shows live quotes with the session of each symbol', async () => {
    await page.click('#nav a[data-view=quotes]');
    const row = page.locator('#quotes-table tr[data-symbol=EURUSD]');
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(1, 3)).toEqual(['1.10510', '1.10530']);
    expect(await row.locator('td').nth(5).textContent()).toBe('opentrades around the clock');
    expect(await row.locator('td').nth(6).textContent()).toBe('2');
    expect((await pushQuote(server, 1.1049, 1.1050)).status).toBe(200);
    await expect.poll(() => row.locator('td').nth(1).textContent()).toBe('1.10490');
    expect(await row.locator('td').nth(1).getAttribute('class')).toContain('tick-down');
  });

  it('triggers the kill switch: the report is not covered by a notice, its order ids are plain cells; a fresh code resets it', async () => {
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
    expect(report).toMatch(/2 closed · 1 cancelled/);
    expect(report).toContain(String(botTicket));
    // Nothing floats over the report.
    const notice = page.locator('#notice');
    if (await notice.isVisible()) {
      const [n, r] = [await notice.boundingBox(), await page.locator('#ks-report').boundingBox()];
      expect(n!.y >= r!.y + r!.height || n!.y + n!.height <= r!.y).toBe(true);
    }
    // The cancelled order's id is set like its neighbours: same size, same line.
    const row = page.locator('#ks-report tr').filter({ hasText: scene.botOrderId });
    expect(await row.locator('td').nth(1).textContent()).toBe(scene.botOrderId);
    // Measured at one instant: the report may still be scrolling into view.
    const [account, id] = await row.evaluate((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return { size: getComputedStyle(td).fontSize, top: Math.round(range.getBoundingClientRect().top) };
    }));
    expect(id).toEqual(account);

    const open = await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001');
    expect(open.body.data).toEqual([]);
    await page.fill('#ks-reset-totp', await alice.device.fresh());
    await page.click('#ks-reset-form button[type=submit]');
    await expect.poll(() => page.locator('#ks-state').textContent()).toBe('ARMED');
    // The page shows the new state first, then reloads the history.
    await expect.poll(() => page.locator('#ks-history tbody tr').count()).toBe(2);
  });

  it('shows the audit log in words, not JSON', async () => {
    await page.click('#nav a[data-view=audit]');
    const pause = page.locator('#audit-table tbody tr').filter({ hasText: 'key.pause' });
    await pause.first().waitFor();
    expect(await pause.first().locator('td.detail-cell').textContent()).toBe('statusActive → Paused');
    const close = await page.locator('#audit-table tbody tr').filter({ hasText: 'position.close' }).first().locator('td.detail-cell').textContent();
    expect(close, String(close)).toMatch(new RegExp(`^closedticket ${scene.manualTicket}, symbol EURUSD, volume 0.1, close price [\\d.]+, profit -?[\\d.]+$`));
    for (const text of await page.locator("#audit-table td.detail-cell").allTextContents()) expect(text).not.toMatch(/[{}]|":/);
  });

  it('logs out: the session ends on the server', async () => {
    await page.click('#logout');
    await page.locator('#login-view').waitFor();
    const cookies = await page.context().cookies(server.console);
    expect(cookies.filter((c) => c.name === 'tas_session')).toEqual([]);
    expect(tab.errors).toEqual([]);
  });
});

