// Order ids and position tickets share one allocator per shard: counter × 64 + shardId. Shards
// never collide, and a restart continues from the persisted counter, so no id ever repeats.

export const MAX_SHARDS = 64;

export class IdAllocator {
  constructor(readonly shardId: number, private counter: number) {}

  /** Ids allocated so far; the host persists it with each batch. */
  get allocated(): number {
    return this.counter;
  }

  /** Makes sure an id of this shard already in use (loaded state) is never allocated again. */
  observe(id: number): void {
    if (id % MAX_SHARDS === this.shardId) this.counter = Math.max(this.counter, Math.floor(id / MAX_SHARDS));
  }

  next(): number {
    this.counter += 1;
    return this.counter * MAX_SHARDS + this.shardId;
  }
}

/**
 * Whether shard `shardId` allocated `id` after its counter stood at `counter`: an order of a later
 * journal record than a checkpoint that stored `counter`. Ids of other shards (accounts moved by
 * resharding) never are.
 */
export function allocatedAfter(id: number, shardId: number, counter: number): boolean {
  return id % MAX_SHARDS === shardId && Math.floor(id / MAX_SHARDS) > counter;
}
