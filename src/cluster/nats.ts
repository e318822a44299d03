// The NATS connection of a node's thread (each shard thread has its own, so one thread's traffic
// never queues behind another's), and how its errors are told apart.
import { connect, errors, type NatsConnection } from '@nats-io/transport-node';
import { JetStreamApiError, JetStreamApiCodes } from '@nats-io/jetstream';

/** How long a connect waits for a server before start-up gives up with a message naming them. */
const CONNECT_TIMEOUT_MS = 5000;
const RECONNECT_WAIT_MS = 250;

export async function connectNats(servers: readonly string[], name: string): Promise<NatsConnection> {
  try {
    return await connect({
      servers: [...servers],
      name,
      timeout: CONNECT_TIMEOUT_MS,
      // A node never gives up on its cluster: while NATS is away it refuses what needs it.
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
      waitOnFirstConnect: false,
    });
  } catch (err) {
    throw new Error(`cannot reach NATS at ${servers.join(', ')}: ${(err as Error).message}`, { cause: err });
  }
}

/** A JetStream write refused because the stream (or key) is no longer where the writer left it. */
export function isWrongSequence(err: unknown): boolean {
  return err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamWrongLastSequence;
}

/** Nobody subscribes to the subject: no node serves it now. */
export function isNoResponders(err: unknown): boolean {
  return err instanceof errors.RequestError ? err.isNoResponders() : err instanceof errors.NoRespondersError;
}
