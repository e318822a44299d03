// Counters the FIX thread writes and the main thread reads at scrape time: one SharedArrayBuffer of
// 64-bit slots updated with Atomics, so counting costs the FIX thread no message and no lock.
// Slots: sessions logged on, Logons accepted, then messages in and out per MsgType.

/** MsgTypes the gateway handles (docs/fix.md); any other is counted as "other". */
export const FIX_MSG_TYPES = ['A', '0', '1', '2', '3', '4', '5', 'D', 'F', 'G', '8', '9', 'j', 'V', 'W', 'Y', 'AN', 'AO', 'AP'] as const;
/** Session-level messages the gateway sends (Heartbeat, Logon, Logout, …) are encoded without a type at hand. */
const ADMIN = 'admin';

const TYPES: readonly string[] = [...FIX_MSG_TYPES, 'other', ADMIN];
const SESSIONS = 0;
const LOGONS = 1;
const FIRST_IN = 2;
const FIRST_OUT = FIRST_IN + TYPES.length;
const SLOTS = FIRST_OUT + TYPES.length;

const slotOf = (msgType: string): number => {
  const i = TYPES.indexOf(msgType === '' ? ADMIN : msgType);
  return i < 0 ? TYPES.indexOf('other') : i;
};

export class FixCounters {
  /** Every MsgType label a count is kept under. */
  readonly countedTypes: readonly string[] = TYPES;
  private readonly slots: BigInt64Array;

  constructor(readonly sab: SharedArrayBuffer = new SharedArrayBuffer(SLOTS * 8)) {
    this.slots = new BigInt64Array(sab);
  }

  loggedOn(): void {
    Atomics.add(this.slots, SESSIONS, 1n);
    Atomics.add(this.slots, LOGONS, 1n);
  }

  ended(): void { Atomics.sub(this.slots, SESSIONS, 1n); }

  /** `msgType` '' is a session-level message the gateway sent. */
  message(direction: 'in' | 'out', msgType: string): void {
    Atomics.add(this.slots, (direction === 'in' ? FIRST_IN : FIRST_OUT) + slotOf(msgType), 1n);
  }

  sessions(): number { return Number(Atomics.load(this.slots, SESSIONS)); }

  logons(): number { return Number(Atomics.load(this.slots, LOGONS)); }

  messages(direction: 'in' | 'out', msgType: string): number {
    return Number(Atomics.load(this.slots, (direction === 'in' ? FIRST_IN : FIRST_OUT) + slotOf(msgType)));
  }
}
