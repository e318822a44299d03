// The comment dedup table: per webhook, for the window from the first signal, sharing the answer.
import { describe, expect, it } from 'vitest';
import { DedupTable } from '../../src/gateway/webhooks/dedup.js';

describe('DedupTable', () => {
  it('finds a comment within the window on the same webhook only', async () => {
    const table = new DedupTable<string>(10_000);
    table.remember('wh1', 'c', { signalId: 'wh1:1', atMs: 1000, answer: Promise.resolve('first') });
    expect(await table.find('wh1', 'c', 10_999)?.answer).toBe('first');
    expect(table.find('wh1', 'c', 11_000)).toBeUndefined();
    expect(table.find('wh2', 'c', 2000)).toBeUndefined();
    expect(table.find('wh1', 'other', 2000)).toBeUndefined();
  });

  it('hands a repeat the answer still being worked on', async () => {
    const table = new DedupTable<string>(10_000);
    let finish: (v: string) => void = () => undefined;
    const answer = new Promise<string>((resolve) => { finish = resolve; });
    table.remember('wh1', 'c', { signalId: 'wh1:7', atMs: 0, answer });
    const repeat = table.find('wh1', 'c', 5)!;
    expect(repeat.signalId).toBe('wh1:7');
    finish('done');
    expect(await repeat.answer).toBe('done');
  });

  it('drops expired comments when a new one is remembered, and a window starts anew after expiry', () => {
    const table = new DedupTable<number>(10_000);
    table.remember('wh1', 'a', { signalId: 's1', atMs: 0, answer: Promise.resolve(1) });
    table.remember('wh1', 'b', { signalId: 's2', atMs: 20_000, answer: Promise.resolve(2) });
    table.remember('wh1', 'a', { signalId: 's3', atMs: 20_001, answer: Promise.resolve(3) });
    expect(table.find('wh1', 'a', 20_002)?.signalId).toBe('s3');
    expect(table.find('wh1', 'b', 29_999)?.signalId).toBe('s2');
  });
});
