// The dead-man's switch over the stream: op cancel_all_after arms or disarms the key's switch as
// POST /v1/cancel-all-after does (same range, same trade limit, trade scope), and op
// cancel_on_disconnect makes this connection's drop fire the key's switch at once (Deribit and
// Bybit's cancel-on-disconnect). A drop is any close the server did not start for its own
// shutdown: the client going away, a network failure, a slow-consumer or policy close.
import { ApiError } from '../errors.js';
import type { GatewayContext } from '../context.js';
import { armCommand, deadManJson, parseDeadManRequest } from '../dead-man-request.js';
import { callShard } from '../shard-call.js';
import { ShardBusyError } from '../../shard/calls.js';
import { StreamError } from './messages.js';
import type { CancelAllAfterOp, CancelOnDisconnectOp, OpId } from './ops.js';

export interface DeadManOutlet {
  readonly session: { readonly keyId: string; readonly login: string };
  readonly isOpen: boolean;
  readonly log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  push(text: string): void;
}

type Deps = Pick<GatewayContext, 'pool' | 'symbols' | 'config' | 'clock' | 'auth' | 'limits'>;

const BUSY_RETRY_MS = 5;
const BUSY_RETRIES = 2000;

const STREAM_ERRORS = new Set(['bad_request', 'forbidden', 'not_found', 'rate_limited']);

/** A refusal as the stream names it (stream error names are a subset of REST's). */
function streamError(err: unknown): StreamError | null {
  if (err instanceof StreamError) return err;
  if (!(err instanceof ApiError)) return null;
  const name = STREAM_ERRORS.has(err.errorName) ? err.errorName as StreamError['errorName'] : 'bad_request';
  return new StreamError(name, err.errorName === name ? err.message : `${err.errorName}: ${err.message}`, err.field);
}

export class StreamDeadMan {
  /** Connections that fire on drop, with whether positions close too. */
  private readonly onDrop = new Map<DeadManOutlet, boolean>();

  constructor(private readonly ctx: Deps) {}

  /** Arms or disarms; answers `cancel_all_after` with the deadline, or an error message. */
  cancelAllAfter(outlet: DeadManOutlet, op: CancelAllAfterOp, errorText: (id: OpId, err: StreamError) => string): void {
    const { keyId, login } = outlet.session;
    const fail = (err: unknown): void => {
      const refusal = streamError(err);
      if (refusal === null) {
        outlet.log.error({ err }, 'stream cancel_all_after failed');
        outlet.push(JSON.stringify({ channel: 'error', id: op.id, name: 'internal_error', message: 'internal error' }));
      } else outlet.push(errorText(op.id, refusal));
    };
    try {
      this.requireTrade(keyId);
      const request = parseDeadManRequest(op.body, this.ctx.config.dead_man);
      const verdict = this.ctx.limits.trade(login, this.ctx.clock.nowMs(), true);
      if (!verdict.allowed) throw new StreamError('rate_limited', `trade limit of account ${login} exceeded: retry in ${verdict.retryAfterS ?? 1} s`);
      callShard(this.ctx, login, armCommand(login, keyId, request)).then((result) => {
        if (result.kind !== 'deadMan') throw new Error(`cancel_all_after answered with ${result.kind}`);
        outlet.push(JSON.stringify({ channel: 'cancel_all_after', id: op.id, ...deadManJson(result, this.ctx.clock.nowMs()) }));
      }).catch(fail);
    } catch (err) {
      fail(err);
    }
  }

  cancelOnDisconnect(outlet: DeadManOutlet, op: CancelOnDisconnectOp): string {
    this.requireTrade(outlet.session.keyId);
    if (op.enabled) this.onDrop.set(outlet, op.closePositions);
    else this.onDrop.delete(outlet);
    return JSON.stringify({ channel: 'cancel_on_disconnect', id: op.id, enabled: op.enabled, close_positions: op.enabled && op.closePositions });
  }

  /** The connection is gone: fires when it asked for it (not when the server shuts down). */
  dropped(outlet: DeadManOutlet, serverClosing: boolean): void {
    const closePositions = this.onDrop.get(outlet);
    this.onDrop.delete(outlet);
    if (closePositions === undefined || serverClosing) return;
    const { keyId, login } = outlet.session;
    const fire = (attempt: number): void => {
      this.ctx.pool.calls.request(login, { kind: 'fireDeadMan', login, keyId, cause: 'disconnect', closePositions }).then(
        ({ answer }) => { if (answer.t !== 'done') outlet.log.warn({ answer }, 'stream cancel_on_disconnect did not fire'); },
        (err: unknown) => {
          // A saturated shard refuses at once: the firing must not be lost, so it is retried.
          if (err instanceof ShardBusyError && attempt < BUSY_RETRIES) setTimeout(() => fire(attempt + 1), BUSY_RETRY_MS);
          else outlet.log.error({ err }, 'stream cancel_on_disconnect could not reach the shard');
        },
      );
    };
    fire(0);
  }

  private requireTrade(keyId: string): void {
    const key = this.ctx.auth.keys.get(keyId);
    if (!key?.record.scopes.includes('trade')) throw new StreamError('forbidden', `key ${keyId} lacks the trade scope`);
  }
}
