// Yields to the event loop (sockets, timers) before the caller's next slice of work: a main-thread
// job over thousands of keys runs a slice per turn so that requests are served in between.
// (src/ring keeps its own copy: that layer imports nothing.)
export const eventLoopTurn = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });
