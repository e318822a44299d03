// The TypeScript SDK of the Trading Access Service: signed REST calls and a stream that loses no
// order or position event across reconnects. Depends on nothing of the server but the wire schemas
// (src/api/schemas.ts, its types); Node 20+ and `ws`.
export { ApiError, type ApiErrorInit } from './errors.js';
export { Backoff, type BackoffOptions } from './backoff.js';
export { RestClient, type RestOptions } from './rest.js';
export { sign, authHeaders, signedStreamUrl } from './signing.js';
export { StreamClient, type StreamClientOptions, type StreamHandlers, type SubscribeRequest, type DisconnectInfo, type GapInfo } from './stream.js';
export type * from './types.js';
