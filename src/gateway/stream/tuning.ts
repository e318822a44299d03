// The stream's fixed settings; the configurable limits are in config `stream` (docs/stream.md
// lists both).
export const STREAM_TUNING = {
  /** Largest client message; a bigger one closes the connection with 1009 and a reason... */
  maxMessageBytes: 16 * 1024,
  /** ...up to this size; past it uWS drops the TCP connection without reading the rest. */
  maxPayloadBytes: 1024 * 1024,
  /** uWS closes a connection silent this long; it pings first (sendPingsAutomatically). */
  idleTimeoutS: 120,
  /** A quote subscriber with more buffered than this gets conflated quotes... */
  conflateAtBytes: 64 * 1024,
  /** ...until its buffer is below this again. */
  resumeAtBytes: 16 * 1024,
  sweepMs: 50,
  opsPerSecond: 50,
  opsBurst: 100,
  /** Refused ops in a row (over the rate) after which the connection is closed as abusive. */
  abusiveRefusals: 100,
  replayChunkEvents: 500,
  /** Snapshot pages end past this many bytes (or a quarter of stream.max_buffer_bytes when smaller). */
  snapshotPageBytes: 64 * 1024,
  replayRetryMs: 10,
  maxHeldEvents: 100_000,
  accountThrottleMs: 100,
} as const;
