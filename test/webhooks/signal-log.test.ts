// The signal log on a real LMDB store: numbering that continues after a reopen, newest-first pages
// with a cursor, late rewrites, and the retention bound per webhook.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIGNAL_LOG_RETAINED, SignalLog, signalIdOf, type SignalLogEntry } from '../../src/gateway/webhooks/signal-log.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createLogger } from '../../src/base/log.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function open(dir?: string): { log: SignalLog; store: Store; dir: string } {
  const at = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tas-signal-log-'));
  if (dir === undefined) dirs.push(at);
  const store = openStore(path.join(at, 'data'), 'none', 0);
  stores.push(store);
  return { log: new SignalLog(store, createLogger('silent')), store, dir: at };
}

const entry = (webhookId: string, seq: number, extra: Partial<SignalLogEntry> = {}): SignalLogEntry => ({
  seq, signal_id: signalIdOf(webhookId, seq), at: new Date(seq * 1000).toISOString(), status: 200, outcome: 'accepted',
  request_id: `r${seq}`, ip: '127.0.0.1', request: { action: 'buy' }, ...extra,
});

function append(log: SignalLog, webhookId: string, count: number): void {
  for (let i = 0; i < count; i++) log.write(webhookId, entry(webhookId, log.nextSeq(webhookId)));
}

describe('SignalLog', () => {
  it('numbers each webhook on its own and continues after a reopen', async () => {
    const first = open();
    append(first.log, 'a', 3);
    append(first.log, 'b', 1);
    await first.log.settled();
    await first.store.close();
    stores.splice(stores.indexOf(first.store), 1);
    const again = open(first.dir);
    expect(again.log.nextSeq('a')).toBe(4);
    expect(again.log.nextSeq('b')).toBe(2);
    expect(again.log.nextSeq('c')).toBe(1);
  });

  it('pages newest first with a cursor, and shows what was written just before', async () => {
    const { log } = open();
    append(log, 'a', 5);
    append(log, 'b', 2);
    const first = await log.page('a', null, 2);
    expect(first.data.map((e) => e.seq)).toEqual([5, 4]);
    const second = await log.page('a', Number(first.next_cursor), 2);
    expect(second.data.map((e) => e.seq)).toEqual([3, 2]);
    const last = await log.page('a', Number(second.next_cursor), 2);
    expect(last).toEqual({ data: [entry('a', 1)], next_cursor: null });
  });

  it('replaces an entry with its late fan-out once the promise resolves', async () => {
    const { log } = open();
    const seq = log.nextSeq('a');
    log.write('a', entry('a', seq, { pending_targets: 1 }));
    let finish: (e: SignalLogEntry) => void = () => undefined;
    log.writeWhen('a', new Promise((resolve) => { finish = resolve; }));
    expect((await log.page('a', null, 1)).data[0]!.pending_targets).toBe(1);
    finish(entry('a', seq, { pending_targets: 0 }));
    await log.settled();
    expect((await log.page('a', null, 1)).data[0]!.pending_targets).toBe(0);
  });

  it('keeps the last entries of each webhook only', async () => {
    const { log } = open();
    append(log, 'a', SIGNAL_LOG_RETAINED + 200);
    append(log, 'b', 3);
    let seqs: number[] = [];
    for (let cursor: number | null = null; ;) {
      const page = await log.page('a', cursor, 1000);
      seqs = [...seqs, ...page.data.map((e) => e.seq)];
      if (page.next_cursor === null) break;
      cursor = Number(page.next_cursor);
    }
    expect(seqs).toHaveLength(SIGNAL_LOG_RETAINED);
    expect(seqs[0]).toBe(SIGNAL_LOG_RETAINED + 200);
    expect(seqs[seqs.length - 1]).toBe(201);
    expect((await log.page('b', null, 10)).data).toHaveLength(3);
  });
});
