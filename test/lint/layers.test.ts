// Every folder under src/ is a layer with a fence: the rules built from LAYERS in eslint.config.js
// refuse an import of any layer above or beside it, and of the root (src/*.ts). These tests lint
// probe sources as if they were files of each layer, at two depths, so a weakened or missing fence fails.
import { ESLint } from 'eslint';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: ROOT });
const { LAYERS } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.js')).href)) as {
  LAYERS: readonly (readonly [string, readonly string[]])[];
};
const NAMES = LAYERS.map(([name]) => name);

async function fenceMessages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

/** A probe in `src/<layer>/` (depth 0) or `src/<layer>/deep/` (depth 1) importing `target` (a path under src/). */
function probe(layer: string, depth: 0 | 1, target: string): [string, string] {
  const up = '../'.repeat(depth + 1);
  const file = depth === 0 ? `src/${layer}/probe.ts` : `src/${layer}/deep/probe.ts`;
  return [file, `import type { X } from '${up}${target}';\nexport type Y = X;\n`];
}

describe('the layers of src/', () => {
  it('names every folder under src/ exactly once', () => {
    const folders = fs.readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect([...NAMES].sort()).toEqual([...folders].sort());
    expect(new Set(NAMES).size).toBe(NAMES.length);
  });

  it('lets a layer import only layers below it (the order is bottom to top)', () => {
    LAYERS.forEach(([layer, allowed], i) => {
      for (const below of allowed) expect(NAMES.indexOf(below), `${layer} -> ${below}`).toBeLessThan(i);
    });
  });

  const refused = LAYERS.flatMap(([layer, allowed]) =>
    NAMES.filter((other) => other !== layer && !allowed.includes(other)).map((other) => [layer, other] as const));
  it.each(refused)('refuses src/%s importing src/%s', async (layer, other) => {
    for (const depth of [0, 1] as const) {
      const messages = await fenceMessages(...probe(layer, depth, `${other}/probe.js`));
      expect(messages, `depth ${depth}`).toHaveLength(1);
      expect(messages[0]).toContain(`src/${layer} may import only itself`);
      expect(messages[0]).toContain(`not src/${other}.`);
    }
  });

  it.each(NAMES)('refuses src/%s importing the root', async (layer) => {
    for (const root of ['service.js', 'main.js']) {
      const messages = await fenceMessages(...probe(layer, 0, root));
      expect(messages.some((m) => m.includes('not the root'))).toBe(true);
    }
  });

  const allowedPairs = LAYERS.flatMap(([layer, allowed]) => [layer, ...allowed].map((target) => [layer, target] as const));
  it.each(allowedPairs)('lets src/%s import src/%s', async (layer, target) => {
    for (const depth of [0, 1] as const) {
      const [file, source] = probe(layer, depth, `${target}/probe.js`);
      expect(await fenceMessages(file, source)).toEqual([]);
    }
    // Within the layer, imports of its own modules and subfolders pass whatever their names.
    expect(await fenceMessages(`src/${layer}/deep/probe.ts`, "import type { X } from './session.js';\nimport type { Z } from '../gateway.js';\nexport type Y = X | Z;\n")).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

  it('draws the layer table exactly as LAYERS, bottom to top', () => {
    const table = /<!-- layers:[^>]*-->\n([\s\S]*?)<!-- \/layers -->/.exec(doc)?.[1] ?? '';
    const rows = table.split('\n').filter((line) => line.startsWith('| `'))
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map(([, layer, may]) => [layer!.replaceAll('`', ''), may === '—' ? [] : may!.split(', ').map((l) => l.replaceAll('`', ''))]);
    expect(rows).toEqual(LAYERS.map(([layer, allowed]) => [layer, [...allowed]]));
  });

  it('names only files that exist', () => {
    // Paths are under src/, written with or without it (`src/main.ts`, `shard/core.ts`), or under bench/ or test/.
    const named = [...doc.matchAll(/`((?:[a-z0-9-]+\/)+[a-z0-9-]+\.ts)`/g)].map((m) => m[1]!)
      .map((file) => (/^(bench|test)\//.test(file) ? file : path.join('src', file.replace(/^src\//, ''))));
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
