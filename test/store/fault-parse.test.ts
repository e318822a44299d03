// TAS_FAULTS as the service reads it (src/store/faults.ts): each section's faults by name, each
// value of its kind, and a clear error naming what is wrong otherwise.
import { describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/store/faults.js';

describe('parseFaults', () => {
  it('reads every fault of each section, a file path for the *_while ones', () => {
    const text = JSON.stringify({
      journal: { lose_unsynced: true, sync_delay_ms: 2, fail_sync_at: 3, crash_after_sync: 4, no_space_while: '/tmp/full' },
      checkpoint: { crash_during: 5, crash_after_ahead: 6, fail_while: '/tmp/full' },
    });
    expect(parseFaults(text)).toEqual(JSON.parse(text));
    expect(parseFaults(undefined)).toEqual({});
    expect(parseFaults('')).toEqual({});
  });

  it('refuses what it does not know, and values of the wrong kind', () => {
    expect(() => parseFaults('[]')).toThrow('TAS_FAULTS must be a JSON object');
    expect(() => parseFaults('{"disk":{}}')).toThrow('TAS_FAULTS: unknown section disk');
    expect(() => parseFaults('{"checkpoint":{"fail_at":1}}')).toThrow('TAS_FAULTS.checkpoint: unknown fault fail_at');
    expect(() => parseFaults('{"checkpoint":{"fail_while":1}}')).toThrow('TAS_FAULTS.checkpoint.fail_while has a bad value');
    expect(() => parseFaults('{"checkpoint":{"crash_during":"6"}}')).toThrow('TAS_FAULTS.checkpoint.crash_during has a bad value');
    expect(() => parseFaults('{"journal":{"fail_sync_at":0}}')).toThrow('TAS_FAULTS.journal.fail_sync_at has a bad value');
    expect(() => parseFaults('{"journal":{"lose_unsynced":1}}')).toThrow('TAS_FAULTS.journal.lose_unsynced has a bad value');
  });
});
