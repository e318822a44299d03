// A probe the flood bench loads into the service (`node --import`): the main thread's event-loop
// delay (perf_hooks, 1 ms resolution), written to stdout as one JSON line and reset whenever the
// process gets SIGUSR2, so a bench can read the server's own stalls apart from its clients'.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number): number => Math.round(ns / 1e3) / 1e3;
    process.stdout.write(`${JSON.stringify({ msg: 'bench loop delay', p50_ms: ms(delay.percentile(50)), p99_ms: ms(delay.percentile(99)), max_ms: ms(delay.max) })}\n`);
    delay.reset();
  });
}
