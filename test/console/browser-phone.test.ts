/// <reference lib="dom" />
// The console at 375 px in headless Chromium, and TOTP enrolment a person can complete: a user the
// operator creates gets a QR code that decodes back to the otpauth URI, signs in with an app fed
// from it, and later moves to a new app on the Security page (its QR decoded from the screen, a
// code of the new secret confirming it, the old app's codes refused from then on). On a phone,
// no page scrolls sideways and every button and link of every page can be reached and tapped.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { launch, openPage, PHONE, signIn, type OpenPage } from './support/browser.js';
import { CONSOLE_CONFIG, consoleSeed, expectError, loginAttempt, SECRETS, user } from './support/console.js';
import { decodePng } from './support/qr.js';
import { traderDay } from './support/scene.js';
import { codeAt, stepNow, TotpDevice } from './support/totp.js';

let server: RunningServer;
let browser: Browser;
let tab: OpenPage;
let page: Page;
const ivan = { id: 'ivan', password: 'ivan-password-0123', device: new TotpDevice('A'.repeat(32)), uri: '' };

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  browser = await launch();
  tab = await openPage(browser, PHONE);
  page = tab.page;
  await traderDay(server, 4);
});
afterAll(async () => {
  await tab?.close();
  await browser?.close();
  await server?.stop();
});

/** Every button and link a person could use on the shown page (visible ones). */
async function reachable(p: Page): Promise<string[]> {
  const problems: string[] = [];
  const width = await p.evaluate(() => document.documentElement.scrollWidth);
  if (width > PHONE.width) problems.push(`the page is ${width} px wide`);
  const controls = p.locator('header a:visible, header button:visible, main button:visible, main a:visible, main input:visible, main select:visible');
  const n = await controls.count();
  for (let i = 0; i < n; i++) {
    const c = controls.nth(i);
    const name = `${await c.evaluate((el) => el.tagName.toLowerCase())} "${((await c.textContent()) ?? '').trim() || (await c.getAttribute('name')) || ''}"`;
    await c.scrollIntoViewIfNeeded();
    const box = await c.boundingBox();
    if (box === null || box.x < 0 || box.x + box.width > PHONE.width + 0.5) problems.push(`${name} lies outside the screen (${JSON.stringify(box)})`);
    // A trial click: visible, stable, enabled, and nothing else takes the tap.
    try { await c.click({ trial: true, timeout: 2000 }); } catch (err) { problems.push(`${name} cannot be tapped: ${(err as Error).message.split('\n')[0]}`); }
  }
  if (n === 0) problems.push('no controls at all');
  return problems;
}

describe('the console on a phone, and TOTP enrolment', { timeout: 90_000 }, () => {
  it('creates a user whose QR code decodes to the otpauth URI, and who signs in with it', async () => {
    const res = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/users', { id: ivan.id, password: ivan.password });
    expect(res.status, res.text).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const { secret, otpauth_uri: uri, qr_svg: svg } = res.body.totp;
    expect(uri).toBe(`otpauth://totp/TAS:ivan?secret=${secret}&issuer=TAS&algorithm=SHA1&digits=6&period=30`);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // The SVG as a browser draws it, read back as a phone camera would.
    await page.setContent(`<img id="qr" width="300" height="300" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`);
    expect(decodePng(await page.locator('#qr').screenshot())).toBe(uri);
    ivan.device = new TotpDevice(secret);
    ivan.uri = uri;
    await signIn(page, server.console, ivan);
    expect(await page.locator('#user-name').textContent()).toBe('ivan');
  });

  it('moves to a new authenticator on the Security page: the QR on screen decodes, a new code confirms, old codes stop', async () => {
    await page.click('#nav a[data-view=security]');
    await page.fill('#enrol-current-totp', await ivan.device.fresh());
    await page.click('#enrol-start button[type=submit]');
    await page.locator('#enrol-step:not([hidden])').waitFor();
    const uri = await page.inputValue('#enrol-uri');
    expect(decodePng(await page.locator('#enrol-qr').screenshot())).toBe(uri);
    const secret = new URL(uri).searchParams.get('secret')!;
    expect(uri).not.toBe(ivan.uri);
    expect((await page.inputValue('#enrol-secret')).replace(/ /g, '')).toBe(secret);
    // A code of the old app does not confirm the new one.
    await page.fill('#enrol-new-totp', await ivan.device.fresh());
    await page.click('#enrol-confirm button[type=submit]');
    await expect.poll(() => page.locator('#enrol-confirm .error').textContent()).toMatch(/wrong or expired for the new secret/);
    // The current step: the enrolment's start spent a code of the old app no later than it.
    const fresh = new TotpDevice(secret);
    const step = stepNow();
    fresh.spent(step);
    await page.fill('#enrol-new-totp', codeAt(secret, step));
    await page.click('#enrol-confirm button[type=submit]');
    await page.locator('#enrol-step[hidden]').waitFor({ state: 'attached' });
    expect(await page.locator('#notice').textContent()).toMatch(/New authenticator confirmed/);
    // From now on only the new app signs in.
    expectError(await loginAttempt(server.consolePort, ivan.id, ivan.password, codeAt(ivan.device.secret, stepNow() + 1)), 401, 'unauthorized');
    ivan.device = fresh;
    await page.click('#logout');
    await signIn(page, server.console, ivan);
  });

  it('keeps every page usable at 375 px: no sideways scrolling, every action on screen and tappable', async () => {
    await page.click('#logout');
    await signIn(page, server.console, user('alice', SECRETS.alice));
    const views: Record<string, string> = {
      accounts: '#positions-table tbody tr',
      quotes: '#quotes-table tbody tr',
      keys: '#keys-table tbody tr',
      'kill-switch': '#accounts-table tbody tr',
      webhooks: '#webhooks-table tbody tr',
      audit: '#audit-table tbody tr',
      security: '#enrol-start',
    };
    for (const [view, ready] of Object.entries(views)) {
      await page.click(`#nav a[data-view="${view}"]`);
      await page.locator(ready).first().waitFor();
      expect(await reachable(page), view).toEqual([]);
    }
    // The key charts open below the key cards, and fit too.
    await page.click('#nav a[data-view=keys]');
    await page.locator('#keys-table tr[data-key=k-alice]').getByRole('button', { name: 'Charts' }).click();
    await page.locator('#chart-requests canvas').waitFor();
    expect(await reachable(page)).toEqual([]);
    const chart = await page.locator('#chart-requests canvas').boundingBox();
    expect(chart!.x + chart!.width).toBeLessThanOrEqual(PHONE.width);
    expect(tab.errors).toEqual([]);
  });
});
