// Plugs the WebSocket stream into the HTTP listener at /v1 (DECISIONS "Running it").
import type { TemplatedApp } from 'uWebSockets.js';
import type { GatewayContext } from '../context.js';
import { StreamHub } from './hub.js';
import { STREAM_PATH } from './upgrade.js';

export interface StreamService {
  /** Stops the feeds and timers and closes every stream connection (1001). */
  close(): void;
}

export function registerStream(app: TemplatedApp, ctx: GatewayContext): StreamService {
  const hub = new StreamHub(app, ctx);
  app.ws(STREAM_PATH, hub.behavior());
  return { close: () => hub.shutdown() };
}
