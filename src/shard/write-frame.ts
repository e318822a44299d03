// Writing a shard's outbound frame without ever dropping it: a full ring is waited out (its reader
// always drains), and a frame too large for the ring is split until each part fits. Parts keep
// the batch's order: the changed accounts go with the first part, items stay in sequence, and a
// reply too large on its own (a kill switch on an account with thousands of positions) sends its
// events ahead as `events` items, which a peer applies exactly as it would the reply's own.
import type { FrameWriter } from '../ring/index.js';
import type { OutItem, ShardOutbound } from './protocol.js';
import { toWire, type WireOutbound } from './batch-wire.js';

const RETRY_DELAY_MS = 1;

type Batch = Extract<ShardOutbound, { t: 'batch' }>;

function halves(frame: Batch): [Batch, Batch] | null {
  const { items } = frame;
  if (items.length >= 2) {
    const mid = Math.ceil(items.length / 2);
    return [{ ...frame, items: items.slice(0, mid) }, { ...frame, accounts: [], items: items.slice(mid) }];
  }
  const only = items[0];
  if (only === undefined || only.events.length === 0) return null;
  // One item: half its events go ahead as an events item.
  const mid = Math.ceil(only.events.length / 2);
  const ahead: OutItem = { k: 'events', events: only.events.slice(0, mid) };
  const rest: OutItem = { ...only, events: only.events.slice(mid) };
  return [{ ...frame, items: [ahead] }, { ...frame, accounts: [], items: [rest] }];
}

export async function writeFrame(writer: FrameWriter<WireOutbound>, frame: ShardOutbound): Promise<void> {
  // One wire value for every retry: the writer keeps a refused frame's bytes for that same value.
  const wire = toWire(frame);
  let accepted: boolean;
  try {
    accepted = writer.tryWrite(wire);
  } catch (err) {
    const parts = frame.t === 'batch' ? halves(frame) : null;
    if (parts === null) throw err;
    await writeFrame(writer, parts[0]);
    await writeFrame(writer, parts[1]);
    return;
  }
  while (!accepted) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    accepted = writer.tryWrite(wire);
  }
}
