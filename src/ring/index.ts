// SPSC rings on SharedArrayBuffer between the main thread, the FIX thread and the shard workers.
export { createDoorbell, createRing, type RingChannel } from './layout.js';
export { RingWriter } from './ring-writer.js';
export { RingReader, type InPlaceFrameHandler } from './ring-reader.js';
export { Inbox, doorbellState, type DoorbellState, type InboxOptions } from './inbox.js';
export { FrameReader, FrameWriter } from './frames.js';
export { ConflatingWriter } from './conflating-writer.js';
export { IDLE_STRATEGIES, eventLoopTurn, idleStrategy, type IdleStrategy, type IdleStrategyName } from './idle.js';
