// Yields to the event loop (sockets, timers) between slices of a main-thread job over thousands of
// keys or accounts, so that requests are served in between: one such job done in one go (closing
// a statistics bucket of 2,000 keys) held every request back for 20-25 ms.
// (src/ring keeps its own eventLoopTurn: that layer imports nothing.)
export const eventLoopTurn = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

/** Calls `work` for each item in order, `perTurn` items per event-loop turn, awaiting each call. */
export async function forEachSliced<T>(items: Iterable<T>, perTurn: number, work: (item: T) => void | Promise<void>): Promise<void> {
  let done = 0;
  for (const item of items) {
    if (done > 0 && done % perTurn === 0) await eventLoopTurn();
    done++;
    await work(item);
  }
}
