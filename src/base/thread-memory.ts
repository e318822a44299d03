// A thread's own memory, as V8 counts it, for the per-thread metrics: the process's resident size
// says how much the process keeps, not which thread keeps it. A worker thread records its figures
// into shared memory every THREAD_MEMORY_SAMPLE_MS and the main thread reads them at scrape time,
// so a scrape never asks a thread anything. Each figure is one atomic word: a reader may see
// figures of two consecutive samples side by side, never half a figure.
import { getHeapStatistics } from 'node:v8';

/** How often a worker thread records its figures: a scrape sees them at most this old. */
export const THREAD_MEMORY_SAMPLE_MS = 1000;

export interface ThreadMemory {
  /** Live objects of the thread's JavaScript heap (garbage not yet collected included). */
  readonly heapUsedBytes: number;
  /** What the heap holds from the system: its resident cost, used or not. */
  readonly heapTotalBytes: number;
  /** Memory outside the heap that the thread's objects own (buffers; shared ones count in every thread that holds them). */
  readonly externalBytes: number;
  /** What V8 itself allocated with malloc for this thread (compiler, parser). */
  readonly mallocedBytes: number;
}

const FIELDS = ['heapUsedBytes', 'heapTotalBytes', 'externalBytes', 'mallocedBytes'] as const;

/** This thread's figures now. */
export function ownMemory(): ThreadMemory {
  const h = getHeapStatistics();
  return { heapUsedBytes: h.used_heap_size, heapTotalBytes: h.total_heap_size, externalBytes: h.external_memory, mallocedBytes: h.malloced_memory };
}

/** One thread's figures in shared memory: that thread writes, any thread reads. */
export class ThreadMemoryBoard {
  private readonly words: BigInt64Array;

  constructor(readonly sab: SharedArrayBuffer) {
    if (sab.byteLength !== FIELDS.length * 8) throw new TypeError('not a thread memory board');
    this.words = new BigInt64Array(sab);
  }

  static create(): ThreadMemoryBoard {
    return new ThreadMemoryBoard(new SharedArrayBuffer(FIELDS.length * 8));
  }

  write(m: ThreadMemory): void {
    FIELDS.forEach((f, i) => Atomics.store(this.words, i, BigInt(m[f])));
  }

  /** All zero until the thread's first sample. */
  read(): ThreadMemory {
    const at = (i: number): number => Number(Atomics.load(this.words, i));
    return { heapUsedBytes: at(0), heapTotalBytes: at(1), externalBytes: at(2), mallocedBytes: at(3) };
  }

  /** Records the calling thread's figures now and every THREAD_MEMORY_SAMPLE_MS; the timer does not keep the thread alive. */
  recordOwn(): void {
    this.write(ownMemory());
    setInterval(() => this.write(ownMemory()), THREAD_MEMORY_SAMPLE_MS).unref();
  }
}
