// The thread's table of recent strings: whatever a slot holds, the text asked for is the text given
// back (that a repeat is the same object cannot be seen from JavaScript; the REST probe in
// docs/architecture.md measures what it saves).
import { describe, expect, it } from 'vitest';
import { RecentStrings } from '../../src/shard/recent-strings.js';

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('recent strings', () => {
  it('decodes the same bytes alike wherever they lie, and tells a longer or shorter string from a held one', () => {
    const recent = new RecentStrings();
    const first = recent.ascii(ascii('xxEURUSDyy'), 2, 6);
    expect(first).toBe('EURUSD');
    expect(recent.ascii(ascii('EURUSD'), 0, 6)).toBe('EURUSD');
    expect(recent.ascii(ascii('EURUSDX'), 0, 6)).toBe('EURUSD');
    expect(recent.ascii(ascii('EURUSDX'), 0, 7)).toBe('EURUSDX');
    expect(recent.ascii(ascii('EURUSDX'), 0, 5)).toBe('EURUS');
  });

  it('decodes every string right when far more strings than slots share the table', () => {
    const recent = new RecentStrings();
    const texts = Array.from({ length: 50_000 }, (_, i) => String(500_000 + ((i * 7919) % 60_000)));
    for (let round = 0; round < 2; round++) {
      for (const text of texts) expect(recent.ascii(ascii(text), 0, text.length)).toBe(text);
    }
    expect(recent.ascii(ascii(''), 0, 0)).toBe('');
  });
});
