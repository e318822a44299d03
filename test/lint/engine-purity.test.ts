// The engine must stay pure (commands and time in, events out) so a shard can replay its journal:
// the ESLint rule in eslint.config.js refuses I/O imports, the clock and randomness under
// src/engine. These tests lint probe sources as if they were engine files, so a weakened rule fails.
import { ESLint } from 'eslint';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: ROOT });

async function engineLint(source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, 'src/engine/probe.ts') });
  return result!.messages.filter((m) => m.ruleId?.startsWith('no-restricted')).map((m) => m.message);
}

describe('src/engine purity rule', () => {
  it.each([
    ["import fs from 'node:fs'; export const n = fs;", 'no Node I/O'],
    ["import { Worker } from 'worker_threads'; export const w = Worker;", 'no Node I/O'],
    ["import { open } from 'lmdb'; export const o = open;", 'no I/O libraries'],
    ["import uWS from 'uWebSockets.js'; export const u = uWS;", 'no I/O libraries'],
    ["import { pino } from 'pino'; export const p = pino;", 'no I/O libraries'],
    ["import { Market } from '../market/market.js'; export const m = Market;", 'may import only itself'],
    ["import { compileSession } from '../market/session.js'; export const c = compileSession;", 'may import only itself'],
    ['export const now = Date.now();', 'takes time as an argument'],
    ['export const d = new Date();', 'takes time as an argument'],
    ['export const r = Math.random();', 'no Math.random'],
    ['export const t = performance.now();', 'takes time as an argument'],
  ])('refuses %s', async (source, reason) => {
    const messages = await engineLint(source);
    expect(messages.some((m) => m.includes(reason))).toBe(true);
  });

  it('allows the engine\'s own modules', async () => {
    expect(await engineLint("import { compileSession } from './market-session.js';\nimport type { Quote } from './types.js';\nexport const c = compileSession;\nexport type Q = Quote;\n")).toEqual([]);
  });

  it('passes on the real engine', async () => {
    const results = await eslint.lintFiles([path.join(ROOT, 'src/engine')]);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}:${m.line} ${m.message}`))).toEqual([]);
  });
});
