// A shard's journal as a JetStream stream (one per shard, `cluster.replicas` replicas): the leader
// appends a batch's records and commit() publishes them as ONE message, so a batch is stored
// whole or not at all; the PubAck comes once a quorum of the stream's replicas stored it. Every
// publish expects the stream's last sequence to be the one this leader wrote last: after another
// node's lead marker (or any message) the publish is refused, which fences a leader that lost its
// lease without knowing it. A refused or failed commit leaves this node's engine ahead of the
// stream, so the shard rebuilds itself from its checkpoint and the stream (cluster-shard.ts).
import type { JetStreamClient } from '@nats-io/jetstream';
import type { BatchJournal } from '../shard/core.js';
import type { JournalEntry } from '../store/journal/entry.js';
import { JournalError, type JournalState } from '../store/journal/writer.js';
import { encode, type JournalMessage, type Origin } from './codec.js';
import { isWrongSequence } from './nats.js';
import { journalSubject } from './names.js';

/** Where a leader starts: after the stream's message `lastSeq`, with the next record at `nextLsn`. */
export interface LeadPosition { readonly lastSeq: number; readonly nextLsn: number }

export type CommitResult =
  | { readonly t: 'stored'; readonly seq: number }
  /** Another writer got there first: this node no longer owns the shard. */
  | { readonly t: 'fenced'; readonly message: string }
  /** No quorum, NATS away or too slow: whether the batch was stored is unknown. */
  | { readonly t: 'failed'; readonly message: string };

export class ReplicatedJournal implements BatchJournal {
  private entries: JournalEntry[] = [];
  private firstLsn = 0;
  private nextLsnValue: number;
  private durableLsnValue: number;
  private lastSeq: number;
  private leading = false;

  constructor(private readonly js: JetStreamClient, private readonly shard: number, private readonly commitTimeoutMs: number, from: LeadPosition) {
    this.nextLsnValue = from.nextLsn;
    this.durableLsnValue = from.nextLsn - 1;
    this.lastSeq = from.lastSeq;
  }

  get state(): JournalState { return 'ok'; }

  get durableLsn(): number { return this.durableLsnValue; }

  /** Only a leader journals; a replica applies what the leader journaled. */
  ready(): boolean { return this.leading; }

  /** The stream message the last commit (or the lead marker) is. */
  get streamSeq(): number { return this.lastSeq; }

  /** As a replica: the stream was applied up to record `lsn`, in message `seq`. */
  follow(lsn: number, seq: number): void {
    this.nextLsnValue = lsn + 1;
    this.durableLsnValue = lsn;
    this.lastSeq = seq;
  }

  /**
   * Writes this node's lead marker after the message followed last; the shard may journal once it
   * is stored. 'fenced': the stream moved on (the replica is behind, or another node wrote first).
   */
  async lead(node: string, atMs: number): Promise<CommitResult> {
    const result = await this.publish({ t: 'lead', node, atMs });
    this.leading = result.t === 'stored';
    return result;
  }

  append(entry: JournalEntry): number {
    if (!this.leading) throw new JournalError('failed', `shard ${this.shard} is not led by this node`);
    if (this.entries.length === 0) this.firstLsn = this.nextLsnValue;
    this.entries.push(entry);
    return this.nextLsnValue++;
  }

  /** Publishes what was appended as one message; until it resolves nothing of the batch may leave. */
  async commit(origins: readonly Origin[]): Promise<CommitResult> {
    const entries = this.entries;
    this.entries = [];
    const result = await this.publish({ t: 'batch', firstLsn: this.firstLsn, entries, origins });
    if (result.t === 'stored') this.durableLsnValue = this.nextLsnValue - 1;
    else this.leading = false;
    return result;
  }

  private async publish(message: JournalMessage): Promise<CommitResult> {
    try {
      const ack = await this.js.publish(journalSubject(this.shard), encode(message), {
        expect: { lastSequence: this.lastSeq },
        timeout: this.commitTimeoutMs,
        retries: 0,
      });
      this.lastSeq = ack.seq;
      return { t: 'stored', seq: ack.seq };
    } catch (err) {
      const why = (err as Error).message;
      if (isWrongSequence(err)) return { t: 'fenced', message: `shard ${this.shard}: another node wrote its journal (${why})` };
      return { t: 'failed', message: `shard ${this.shard}: its journal's quorum did not confirm the batch (${why})` };
    }
  }
}
