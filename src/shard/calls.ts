// The shard client as promises, for the main thread's routes: one call per command, or one frame
// per shard for a fan-out (a webhook signal, a kill switch), each command still answered on its own.
// A shard whose queue is full refuses at once (ShardBusyError): backpressure the caller turns into
// a 429, never a silent wait.
import type { Command, EngineEvent } from '../engine/types.js';
import type { ShardClient } from './client.js';
import type { Answer, OrderRef } from './protocol.js';

export class ShardBusyError extends Error {
  constructor(readonly shard: number) { super(`shard ${shard} queue is full`); }
}

export interface Reply { readonly answer: Answer; readonly events: readonly EngineEvent[] }

export interface Addressed { readonly login: string; readonly cmd: Command }

export class ShardCalls {
  constructor(private readonly client: ShardClient) {}

  request(login: string, cmd: Command): Promise<Reply> {
    return new Promise((resolve, reject) => {
      if (!this.client.command(login, cmd, (answer, events) => resolve({ answer, events }))) reject(new ShardBusyError(this.client.shardOf(login)));
    });
  }

  /**
   * One frame per shard for all of `calls`; the promises answer in the order given. A busy shard
   * rejects its own calls with ShardBusyError; the other shards' calls go ahead.
   */
  many(calls: readonly Addressed[]): Promise<Reply>[] {
    const byShard = new Map<number, number[]>();
    calls.forEach((c, i) => {
      const shard = this.client.shardOf(c.login);
      const list = byShard.get(shard);
      if (list === undefined) byShard.set(shard, [i]);
      else list.push(i);
    });
    const replies: Promise<Reply>[] = new Array(calls.length);
    for (const [shard, indexes] of byShard) {
      const resolvers: ((r: Reply) => void)[] = [];
      for (const i of indexes) replies[i] = new Promise<Reply>((resolve) => { resolvers.push(resolve); });
      const sent = this.client.send(shard, indexes.map((i, k) => ({ cmd: calls[i]!.cmd, onAnswer: (answer, events) => resolvers[k]!({ answer, events }) })));
      if (!sent) for (const i of indexes) replies[i] = Promise.reject(new ShardBusyError(shard));
    }
    return replies;
  }

  account(login: string): Promise<Answer> {
    return this.ask(login, (onAnswer) => this.client.query(login, { kind: 'account', login }, onAnswer));
  }

  order(login: string, ref: OrderRef): Promise<Answer> {
    return this.ask(login, (onAnswer) => this.client.query(login, { kind: 'order', login, ref }, onAnswer));
  }

  private ask(login: string, send: (onAnswer: (answer: Answer) => void) => boolean): Promise<Answer> {
    return new Promise((resolve, reject) => {
      if (!send(resolve)) reject(new ShardBusyError(this.client.shardOf(login)));
    });
  }
}
