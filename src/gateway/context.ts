// What every route module of the main thread is given: the service's parts, built once at start.
import type { AppConfig } from '../config/types.js';
import type { SymbolSpec } from '../engine/types.js';
import type { Clock } from '../base/clock.js';
import type { Market } from '../market/market.js';
import type { ShardPool } from '../shard/pool.js';
import type { ReadModel } from '../shard/read-model.js';
import type { ShardHistory } from '../shard/history.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Store } from '../store/store.js';
import type { Logger } from '../base/log.js';
import type { Authenticator } from './auth/verify.js';
import type { RestLimiter } from './limits/rest-limiter.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { OrderLookup } from './orders/order-lookup.js';
import type { Cidr } from '../base/ip.js';

export interface GatewayContext {
  readonly config: AppConfig;
  readonly log: Logger;
  readonly clock: Clock;
  readonly store: Store;
  readonly box: SecretBox;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  readonly market: Market;
  readonly pool: ShardPool;
  readonly readModel: ReadModel;
  /** The shards' events and orders as the main thread may read them. */
  readonly history: ShardHistory;
  readonly auth: Authenticator;
  readonly trustedProxies: readonly Cidr[];
  /** The REST buckets; the webhook route charges unknown webhooks to the anonymous one. */
  readonly limits: RestLimiter;
  /** How routes read orders (never the shard tables directly: they may lag the answers). */
  readonly orders: OrderLookup;
  readonly metrics: ServiceMetrics;
}
