// The console's web page (DECISIONS "Console": a web page at /console): static HTML, CSS and
// JavaScript modules, served as they are from src/console/web (there is no build step), and the
// chart library's own ES module and stylesheet, served from the installed package as published.
// They are read once at start; a missing file stops start-up rather than serving a broken page.
// The page talks only to the JSON API under /console/api, with the session cookie and CSRF token.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TemplatedApp } from 'uWebSockets.js';
import { Exchange, type Headers } from '../gateway/http.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The page runs only its own files and talks only to its own origin; nothing may frame it. */
const SECURITY_HEADERS: Headers = [
  ['content-security-policy', "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
  ['cache-control', 'no-cache'],
];

interface Asset { readonly text: string; readonly type: string }

/** Files of installed packages the page imports, under the names it imports them by. */
const VENDOR: Readonly<Record<string, string>> = {
  'uPlot.esm.js': 'uplot/dist/uPlot.esm.js',
  'uPlot.min.css': 'uplot/dist/uPlot.min.css',
};

/** src/console/web next to this module (run from source), or beside dist/ (compiled). */
function webDir(): string {
  const candidates = [new URL('./web/', import.meta.url), new URL('../../../src/console/web/', import.meta.url)].map((u) => fileURLToPath(u));
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
  if (found === undefined) throw new Error(`console web page not found (looked in ${candidates.join(', ')})`);
  return found;
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of fs.readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (type !== undefined) assets.set(name, { text: fs.readFileSync(path.join(dir, name), 'utf8'), type });
  }
  const require = createRequire(import.meta.url);
  for (const [name, file] of Object.entries(VENDOR)) {
    assets.set(name, { text: fs.readFileSync(require.resolve(file), 'utf8'), type: TYPES[path.extname(name)]! });
  }
  return assets;
}

export function registerWebPage(app: TemplatedApp): void {
  const assets = loadAssets(webDir());
  const index = assets.get('index.html')!;
  const page = (res: Parameters<Parameters<TemplatedApp['get']>[1]>[0], req: Parameters<Parameters<TemplatedApp['get']>[1]>[1]): void => {
    Exchange.open(res, req)?.send(200, index.text, index.type, SECURITY_HEADERS);
  };
  app.get('/console', page);
  app.get('/console/', page);
  app.get('/', (res, req) => Exchange.open(res, req)?.send(302, 'see /console', 'text/plain', [['location', '/console']]));
  app.get('/console/assets/:name', (res, req) => {
    const ex = Exchange.open(res, req);
    if (!ex) return;
    const asset = assets.get(req.getParameter(0) ?? '');
    if (asset === undefined || asset === index) ex.send(404, 'not found', 'text/plain; charset=utf-8', SECURITY_HEADERS);
    else ex.send(200, asset.text, asset.type, SECURITY_HEADERS);
  });
}
