/// <reference lib="dom" />
// Headless Chromium for the console's page (Debian's /usr/bin/chromium driven by playwright-core):
// a browser with a throw-away profile, pages at desktop or phone width, and the sign-in a person
// does. Chromium missing is a failure, never a skip.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestUser } from './console.js';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--font-render-hinting=none'];

export const DESKTOP = { width: 1440, height: 900 } as const;
/** The narrowest phone layout the console supports (an iPhone SE / 12 mini). */
export const PHONE = { width: 375, height: 740 } as const;

export async function launch(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: install it with "apt-get install -y chromium" (the browser tests never skip)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

export interface OpenPage { readonly page: Page; readonly errors: string[]; close(): Promise<void> }

/** A page in its own context (own cookies), collecting script errors and CSP violations. */
export async function openPage(browser: Browser, viewport: { width: number; height: number }): Promise<OpenPage> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => { errors.push(err.message); });
  // A 401 is how the page learns it is signed out (GET /session before the sign-in): not an error.
  page.on('console', (msg) => { if (msg.type() === 'error' && !msg.text().includes('status of 401')) errors.push(msg.text()); });
  return { page, errors, close: () => context.close() };
}

export async function signIn(page: Page, consoleUrl: string, u: TestUser, view = 'accounts'): Promise<void> {
  await page.goto(`${consoleUrl}/console#${view}`);
  await page.locator('#login-view').waitFor();
  await page.fill('#login-user', u.id);
  await page.fill('#login-password', u.password);
  await page.fill('#login-totp', await u.device.fresh());
  await page.click('#login-form button[type=submit]');
  await page.locator('#nav:not([hidden])').waitFor();
}

export function tempProfileDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'tas-chromium-'));
}

/** How many pixels of the chart's canvas are drawn in `rgb` (±24 per channel): its data, not its grid. */
export function inkOf(page: Page, chartSelector: string, rgb: readonly [number, number, number]): Promise<number> {
  return page.evaluate(([selector, [r, g, b]]) => {
    const canvas = document.querySelector(`${selector} canvas`) as HTMLCanvasElement | null;
    if (canvas === null) return -1;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0 && Math.abs(data[i]! - r) < 24 && Math.abs(data[i + 1]! - g) < 24 && Math.abs(data[i + 2]! - b) < 24) n++;
    }
    return n;
  }, [chartSelector, rgb] as const);
}

export interface ChartText { readonly series: string[]; readonly xTicks: string[]; readonly yTicks: string[] }

/** The legend's series names and the axes' tick labels as drawn. */
export async function chartText(page: Page, chartSelector: string): Promise<ChartText> {
  const chart = page.locator(chartSelector);
  const split = (v: string | null): string[] => (v === null || v === '' ? [] : v.split('|'));
  return {
    series: await chart.locator('.u-legend .u-series th').allTextContents(),
    xTicks: split(await chart.getAttribute('data-x-ticks')),
    yTicks: split(await chart.getAttribute('data-y-ticks')),
  };
}
