// The start and end every shard thread shares (the single-process one and a cluster node's).
import { parentPort } from 'node:worker_threads';
import type { Inbox } from '../ring/index.js';
import type { ShardStore } from '../store/store.js';
import type { Logger } from '../base/log.js';
import type { ShardSignal } from './protocol.js';

export const signalMain = (s: ShardSignal): void => parentPort!.postMessage(s);

/** The last steps of a clean stop: nothing more is read, the environment is closed, the main thread told. */
export async function endShardThread(inbox: Inbox, store: ShardStore, shard: number): Promise<void> {
  inbox.close();
  await store.close();
  signalMain({ t: 'stopped', shard });
}

/** Runs the thread's work; a failure ends the thread. */
export function runShardThread(main: () => Promise<void>, log: Logger): void {
  main().catch((err: unknown) => {
    log.fatal({ err }, 'shard failed');
    // The main thread sees the worker exit and stops the service: an account without its writer
    // must not keep accepting requests.
    process.exit(1);
  });
}
