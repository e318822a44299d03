// A writer for latest-value frames (quotes): what a full ring cannot take now is held, one value
// per key, newest wins, and goes out on the next flush. A consumer that only ever needs the
// latest price per symbol loses nothing it needs, and a producer never blocks or grows a queue.
// Values of different keys keep their order of arrival among themselves only while nothing is
// held; once something is, flush() writes the held values in the order their keys were first held.
export class ConflatingWriter<K, V> {
  private readonly held = new Map<K, V>();
  /** Values that replaced a held one before it could be written. */
  conflated = 0;

  /** `tryWrite` writes one value and says whether the ring took it. */
  constructor(private readonly tryWrite: (value: V) => boolean) {}

  /** Writes `value` now, or holds it as the latest of `key`. */
  offer(key: K, value: V): void {
    if (this.held.size === 0 && this.tryWrite(value)) return;
    if (this.held.has(key)) this.conflated++;
    this.held.set(key, value);
    this.flush();
  }

  /** Writes what is held, in order, until the ring is full; true when nothing is held any more. */
  flush(): boolean {
    for (const [key, value] of this.held) {
      if (!this.tryWrite(value)) return false;
      this.held.delete(key);
    }
    return true;
  }

  get holding(): boolean {
    return this.held.size > 0;
  }

  clear(): void {
    this.held.clear();
  }
}
