// `make screenshots`: every page of the console at desktop width and at 375 px, written to
// docs/screenshots/ (SCREENSHOT_DIR overrides). It runs the real service (dist/) with the console
// tests' fixture, signs in as alice in headless Chromium and makes real traffic (scene.ts). So the
// charts have a past to show, it first writes a generated hour of key statistics and three days of
// equity history into the data directory, through the console's own tables, before the service
// starts; everything after that is live.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { EquityHistory } from '../../src/console/equity/equity-history.js';
import { KeyTally } from '../../src/console/key-series/tally.js';
import { chartTables } from '../../src/console/tables.js';
import { openStore } from '../../src/store/store.js';
import { createLogger } from '../../src/base/log.js';
import { operator } from '../rest/support/client.js';
import { DEFAULT_SHARDS, startServer, tempDir } from '../support/server.js';
import { DESKTOP, launch, openPage, PHONE } from './support/browser.js';
import { ALICE_KEY, CONSOLE_CONFIG, consoleSeed, SECRETS, user } from './support/console.js';
import { pushQuote, traderDay } from './support/scene.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = process.env['SCREENSHOT_DIR'] ?? path.join(ROOT, 'docs/screenshots');

/** A made-up past: a bot's hour of requests on ALICE_KEY, and three days of 700001's equity. */
async function writePast(dataDir: string, nowMs: number): Promise<void> {
  const store = openStore(dataDir, 'sync', DEFAULT_SHARDS);
  const tables = chartTables(store);
  let seed = 7;
  const random = (): number => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  const writes: Promise<boolean>[] = [];
  for (let t = Math.floor((nowMs - 3600_000) / 10_000) * 10_000; t < nowMs - 20_000; t += 10_000) {
    const tally = new KeyTally();
    const busy = 20 + Math.round(30 * Math.sin(t / 900_000) ** 2 + 10 * random());
    for (let i = 0; i < busy; i++) {
      const endpoint = i % 4 === 0 ? 'POST /v1/orders' : i % 4 === 1 ? 'GET /v1/accounts/{login}' : 'GET /v1/positions';
      const error = random() < 0.03 ? 'rate_limited' : random() < 0.01 ? 'invalid_order' : null;
      tally.add(endpoint, error, endpoint.startsWith('POST') ? 600 + 900 * random() : 40 + 160 * random() ** 3);
    }
    writes.push(tables.keySeries10s.put([ALICE_KEY.id, t], tally.toRow()));
  }
  const history = new EquityHistory(tables, createLogger('silent', {}));
  // Walked back from today's equity, so the past meets the present.
  let equity = 10_000_00;
  const samples = [];
  for (let t = nowMs - 120_000; t > nowMs - 3 * 86400_000; t -= 60_000) {
    equity -= Math.round((random() - 0.49) * 900);
    samples.unshift({ login: '700001', atMs: t, balanceCents: 10_000_00, equityCents: equity });
  }
  await history.record(samples);
  await Promise.all(writes);
  await store.close();
}

async function shoot(page: Page, name: string, width: string): Promise<void> {
  // Let charts and polls settle on their latest data; the sticky header belongs at the top.
  await page.waitForTimeout(1200);
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(OUT, `${name}-${width}.png`), fullPage: true });
}

async function main(): Promise<void> {
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = tempDir();
  const nowMs = Date.now();
  await writePast(dataDir, nowMs);
  const server = await startServer({ dataDir, seed: consoleSeed(nowMs), config: CONSOLE_CONFIG });
  const browser = await launch();
  try {
    const scene = await traderDay(server, 40);
    await pushQuote(server, 1.1011, 1.1013);
    const alice = user('alice', SECRETS.alice);
    for (const [width, viewport] of [['375px', PHONE], ['desktop', DESKTOP]] as const) {
      const { page, errors, close } = await openPage(browser, viewport);
      await page.goto(`${server.console}/console`);
      await page.locator('#login-view').waitFor();
      await page.fill('#login-user', 'alice');
      await shoot(page, '01-sign-in', width);
      await page.fill('#login-password', alice.password);
      await page.fill('#login-totp', await alice.device.fresh());
      await page.click('#login-form button[type=submit]');
      await page.locator(`#positions-table tr[data-ticket="${scene.manualTicket}"]`).waitFor();
      await shoot(page, '02-accounts', width);
      await page.click('#nav a[data-view=quotes]');
      await page.locator('#quotes-table tr[data-symbol=EURUSD]').waitFor();
      await shoot(page, '03-quotes', width);
      await page.click('#nav a[data-view=keys]');
      await page.locator(`#keys-table tr[data-key="${ALICE_KEY.id}"]`).waitFor();
      await page.locator(`#keys-table tr[data-key="${ALICE_KEY.id}"]`).getByRole('button', { name: 'Charts' }).click();
      await page.locator('#chart-requests canvas').waitFor();
      await shoot(page, '04-api-keys', width);
      await page.click('#nav a[data-view=webhooks]');
      await page.locator('#webhooks-table tr[data-webhook=wh-alice]').waitFor();
      await shoot(page, '05-webhooks', width);
      await page.click('#nav a[data-view=audit]');
      await page.locator('#audit-table tbody tr').first().waitFor();
      await shoot(page, '06-audit-log', width);
      await page.click('#nav a[data-view=security]');
      await page.fill('#enrol-current-totp', await alice.device.fresh());
      await page.click('#enrol-start button[type=submit]');
      await page.locator('#enrol-step:not([hidden])').waitFor();
      await shoot(page, '07-security', width);
      await page.click('#nav a[data-view=kill-switch]');
      await page.locator('#accounts-table tbody tr').first().waitFor();
      if (width === 'desktop') {
        await page.click('#ks-trigger');
        await page.click('#confirm-ok');
        await page.locator('#ks-report:not([hidden])').waitFor();
      }
      await shoot(page, '08-kill-switch', width);
      if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
      await close();
    }
    await operator(server.consolePort, server.adminToken, 'POST', '/console/api/users/alice/kill-switch/reset', {});
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.stdout.write(`screenshots written to ${path.relative(ROOT, OUT)}/\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`screenshots failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
