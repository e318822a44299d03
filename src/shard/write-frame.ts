// Writing a shard's outbound frame without ever dropping it: a full ring is waited out (its reader
// always drains), and a frame too large for the ring is split in halves until each part fits.
import type { FrameWriter } from '../ring/index.js';
import type { ShardOutbound } from './protocol.js';

const RETRY_DELAY_MS = 1;

type Part =
  | { readonly k: 'e'; readonly v: ShardOutbound['events'][number] }
  | { readonly k: 'a'; readonly v: ShardOutbound['accounts'][number] }
  | { readonly k: 'r'; readonly v: ShardOutbound['replies'][number] };

/** Splits keeping the order events → accounts → replies, so a change still precedes its reply. */
function split(frame: ShardOutbound): [ShardOutbound, ShardOutbound] | null {
  const parts: Part[] = [
    ...frame.events.map((v) => ({ k: 'e', v }) as const),
    ...frame.accounts.map((v) => ({ k: 'a', v }) as const),
    ...frame.replies.map((v) => ({ k: 'r', v }) as const),
  ];
  if (parts.length < 2) return null;
  const build = (ps: Part[]): ShardOutbound => ({
    t: 'batch',
    shard: frame.shard,
    events: ps.flatMap((p) => (p.k === 'e' ? [p.v] : [])),
    accounts: ps.flatMap((p) => (p.k === 'a' ? [p.v] : [])),
    replies: ps.flatMap((p) => (p.k === 'r' ? [p.v] : [])),
  });
  const mid = Math.ceil(parts.length / 2);
  return [build(parts.slice(0, mid)), build(parts.slice(mid))];
}

export async function writeFrame(writer: FrameWriter<ShardOutbound>, frame: ShardOutbound): Promise<void> {
  let accepted: boolean;
  try {
    accepted = writer.tryWrite(frame);
  } catch (err) {
    const halves = split(frame);
    if (!halves) throw err;
    await writeFrame(writer, halves[0]);
    await writeFrame(writer, halves[1]);
    return;
  }
  while (!accepted) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    accepted = writer.tryWrite(frame);
  }
}
