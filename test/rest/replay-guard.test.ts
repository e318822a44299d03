import { describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../src/gateway/auth/replay-guard.js';

const WINDOW_MS = 5_000;

describe('ReplayGuard', () => {
  it('refuses a signature seen within the window and forgets it once its timestamp left the window', () => {
    const guard = new ReplayGuard(WINDOW_MS);
    expect(guard.accept('a', 1_000, 1_000)).toBe('accepted');
    expect(guard.accept('a', 1_000, 1_500)).toBe('replayed');
    expect(guard.accept('a', 1_000, 1_000 + WINDOW_MS)).toBe('replayed');
    expect(guard.accept('a', 1_000, 1_001 + WINDOW_MS)).toBe('accepted');
  });

  it('prunes oldest first and keeps what is still inside the window, over many generations', () => {
    const guard = new ReplayGuard(WINDOW_MS);
    for (let t = 0; t < 50_000; t += 10) expect(guard.accept(`s${t}`, t, t)).toBe('accepted');
    const nowMs = 50_000;
    expect(guard.accept('s49990', 49_990, nowMs)).toBe('replayed');
    expect(guard.accept(`s${nowMs - WINDOW_MS}`, nowMs - WINDOW_MS, nowMs)).toBe('replayed');
    const live = guard.close(nowMs);
    expect(live.length).toBe(WINDOW_MS / 10);
    expect(live[0]).toEqual([`s${nowMs - WINDOW_MS}`, nowMs]);
    expect(live.at(-1)).toEqual(['s49990', 49_990 + WINDOW_MS]);
  });

  it('keeps a signature stamped late by a client clock behind one stamped early', () => {
    const guard = new ReplayGuard(WINDOW_MS);
    expect(guard.accept('ahead', 4_000, 1_000)).toBe('accepted');
    expect(guard.accept('behind', 500, 1_000)).toBe('accepted');
    // 'ahead' expires at 9 000; the prune stops at it, so 'behind' (expired at 5 500) lingers, refused anyway by its timestamp.
    expect(guard.accept('later', 6_000, 6_000)).toBe('accepted');
    expect(guard.accept('ahead', 4_000, 6_000)).toBe('replayed');
    expect(guard.close(9_001)).toEqual([['later', 11_000]]);
  });

  it('honours what a clean stop handed over, the fence, and refuses everything once closed', () => {
    const guard = new ReplayGuard(WINDOW_MS, 2_000, [['old', 3_000], ['kept', 7_000]]);
    expect(guard.accept('x', 1_999, 2_500)).toBe('fenced');
    expect(guard.accept('old', 2_000, 2_500)).toBe('replayed');
    expect(guard.accept('kept', 2_000, 3_500)).toBe('replayed');
    expect(guard.accept('old', 2_000, 3_500)).toBe('accepted');
    expect(guard.close(4_000)).toEqual([['kept', 7_000], ['old', 7_000]]);
    expect(guard.accept('y', 4_000, 4_000)).toBe('closed');
  });
});
