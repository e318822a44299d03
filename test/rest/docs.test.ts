// docs/rest.md's worked signing examples are right: each signature is recomputed here with
// node:crypto from the values the document shows, and the demo key's secret is the shipped one.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(ROOT, 'docs/rest.md'), 'utf8');

function examples(): Map<string, string>[] {
  const blocks = doc.split('<!-- signing-example -->').slice(1).map((part) => /```text\n([\s\S]*?)\n```/.exec(part)?.[1]);
  return blocks.map((block) => {
    expect(block).toBeDefined();
    return new Map(block!.split('\n').map((line) => {
      const m = /^([a-z ]+):(?: {1,}(.*))?$/.exec(line);
      expect(m, line).not.toBeNull();
      return [m![1]!.trim(), m![2] ?? ''];
    }));
  });
}

describe('docs/rest.md signing examples', () => {
  it('show signatures that HMAC-SHA256 over timestamp + method + path + body reproduces', () => {
    const found = examples();
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const ex of found) {
      const part = (name: string): string => {
        const v = ex.get(name);
        expect(v, name).toBeDefined();
        return v!;
      };
      const digest = createHmac('sha256', part('secret'))
        .update(part('timestamp') + part('method') + part('path') + part('body'))
        .digest('hex');
      expect(part('signature')).toBe(digest);
    }
  });

  it('use the demo key that config/default.json ships', () => {
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'config/default.json'), 'utf8')) as { seed: { keys: { id: string; secret: string }[] } };
    for (const ex of examples()) {
      expect(config.seed.keys).toContainEqual(expect.objectContaining({ id: ex.get('key id'), secret: ex.get('secret') }));
    }
  });
});
