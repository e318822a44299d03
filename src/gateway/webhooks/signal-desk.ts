// What happens to one signal, in order (docs/webhooks.md "Processing order"): the webhook (404),
// the credential (401), the JSON (400), the comment dedup (a repeat is answered with the original
// result), the owner's kill switch and the pause (423), the limit (429), the fields (400/403/422),
// then the fan-out. Once orders may have gone out the answer is always 200 with per-target results,
// never a 5xx that a sender such as TradingView would retry. Every outcome goes to the signal log.
import type { UnixMs } from '../../engine/types.js';
import type { Clock } from '../../base/clock.js';
import { ApiError, errorBody } from '../errors.js';
import { parseJsonObject, type Headers } from '../http.js';
import { iso } from '../wire.js';
import { DedupTable } from './dedup.js';
import { fanOut, type FanoutDeps } from './fanout.js';
import { secretMatches, signatureMatches } from './signal-auth.js';
import { SIGNAL_BURST, SIGNAL_WINDOW_MS, SIGNALS_PER_WINDOW, SignalLimits } from './signal-limit.js';
import { signalIdOf, type FanoutJson, type SignalLog, type SignalLogEntry } from './signal-log.js';
import { bodySecret, parseSignal, signalComment, type Signal } from './signal-request.js';
import type { LiveWebhook, WebhookBook } from './webhook-book.js';

/** A signal is a handful of short fields; anything much larger is not one. */
export const MAX_SIGNAL_BODY_BYTES = 4096;
const LOGGED_TEXT_CHARS = 64;

export interface SignalInput {
  readonly webhookId: string;
  readonly requestId: string;
  /** process.hrtime.bigint() when the request arrived; latency_ms counts from it. */
  readonly startedNs: bigint;
  /** `X-Svc-Signature`, '' when absent. */
  readonly signature: string;
  readonly ip: string;
  readonly body: () => Promise<Buffer>;
}

export interface SignalAnswer { readonly status: number; readonly body: unknown; readonly headers: Headers }

export interface AcceptedBody {
  readonly status: 'accepted';
  readonly signal_id: string;
  readonly fanout: readonly FanoutJson[];
  readonly latency_ms: number;
}

export interface SignalDeskDeps extends FanoutDeps {
  readonly clock: Clock;
  readonly deadlineMs: number;
  readonly dedupWindowMs: number;
  readonly book: WebhookBook;
  readonly signalLog: SignalLog;
  /** True while the user's kill switch is Triggered. */
  readonly ownerHalted: (user: string) => boolean;
  /** The caller address's anonymous REST bucket, charged for a signal to an unknown webhook. */
  readonly anonymousLimit: (ip: string, nowMs: UnixMs) => { readonly allowed: boolean; readonly retryAfterS: number | null; readonly headers: Headers };
}

const elapsedMs = (startedNs: bigint): number => Math.round(Number(process.hrtime.bigint() - startedNs) / 1000) / 1000;

/** The body's fields for the log: never the secret, long texts cut, nested values named only. */
function loggable(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body).slice(0, 16)) {
    if (key === 'secret') continue;
    const name = key.slice(0, LOGGED_TEXT_CHARS);
    if (typeof value === 'string') out[name] = value.length > LOGGED_TEXT_CHARS ? `${value.slice(0, LOGGED_TEXT_CHARS)}…` : value;
    else if (value === null || typeof value === 'number' || typeof value === 'boolean') out[name] = value;
    else out[name] = Array.isArray(value) ? '[array]' : '[object]';
  }
  return out;
}

interface Screened { readonly signal: Signal; readonly headers: Headers }

export class SignalDesk {
  private readonly limits = new SignalLimits();
  private readonly dedup: DedupTable<AcceptedBody>;

  constructor(private readonly deps: SignalDeskDeps) {
    this.dedup = new DedupTable(deps.dedupWindowMs);
  }

  async handle(input: SignalInput): Promise<SignalAnswer> {
    const hook = this.deps.book.get(input.webhookId);
    if (hook === undefined) {
      const verdict = this.deps.anonymousLimit(input.ip, this.deps.clock.nowMs());
      const err = verdict.allowed
        ? new ApiError('not_found', `webhook ${input.webhookId} not found`)
        : new ApiError('rate_limited', `too many unauthenticated requests from this address: retry in ${verdict.retryAfterS ?? 1} s`);
      return { status: err.status, body: errorBody(err, input.requestId), headers: verdict.headers };
    }
    const nowMs = this.deps.clock.nowMs();
    const seq = this.deps.signalLog.nextSeq(hook.record.id);
    const entry = { seq, signal_id: signalIdOf(hook.record.id, seq), at: iso(nowMs), request_id: input.requestId, ip: input.ip };
    const bucket = this.limits.bucket(hook.record.id, nowMs);
    let request: Record<string, unknown> | null = null;
    let headers = bucket.peek(nowMs);
    let screened: Screened;
    try {
      const raw = await input.body();
      const body = this.authenticated(hook, input.signature, raw);
      request = loggable(body);
      const comment = signalComment(body);
      const seen = comment === null ? undefined : this.dedup.find(hook.record.id, comment, nowMs);
      if (seen !== undefined) {
        const original = await seen.answer;
        this.deps.signalLog.write(hook.record.id, { ...entry, status: 200, outcome: 'duplicate', request, duplicate_of: seen.signalId });
        return { status: 200, body: { ...original, duplicate: true }, headers };
      }
      screened = this.screen(hook, body, nowMs);
      headers = screened.headers;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // A refusal from the limiter on carries the headers of the token it took.
      const answerHeaders = err.headers.length > 0 ? err.headers : headers;
      this.deps.signalLog.write(hook.record.id, {
        ...entry, status: err.status, outcome: 'rejected', request,
        error: err.field === undefined ? { name: err.errorName, message: err.message } : { name: err.errorName, message: err.message, field: err.field },
      });
      return { status: err.status, body: errorBody(err, input.requestId), headers: answerHeaders };
    }
    // No await between the dedup lookup above and this: a concurrent repeat finds this entry.
    const answer = this.accept(hook, screened.signal, entry, request, input.startedNs);
    if (screened.signal.comment !== null) {
      this.dedup.remember(hook.record.id, screened.signal.comment, { signalId: entry.signal_id, atMs: nowMs, answer });
    }
    return { status: 200, body: await answer, headers };
  }

  /** The body as an object once the credential holds; the header, when sent, is the credential. */
  private authenticated(hook: LiveWebhook, signature: string, raw: Buffer): Record<string, unknown> {
    if (signature !== '') {
      if (!signatureMatches(hook, signature, raw)) throw new ApiError('unauthorized', 'bad X-Svc-Signature');
      return parseJsonObject(raw);
    }
    const body = parseJsonObject(raw);
    const secret = bodySecret(body);
    if (secret === null) throw new ApiError('unauthorized', 'secret (or the X-Svc-Signature header) is required');
    if (!secretMatches(hook, secret)) throw new ApiError('unauthorized', 'bad secret');
    return body;
  }

  /** Kill switch, pause, limit, then the fields: 423, 429, 400/403/422. */
  private screen(hook: LiveWebhook, body: Record<string, unknown>, nowMs: UnixMs): Screened {
    const { record } = hook;
    if (this.deps.ownerHalted(record.user)) throw new ApiError('kill_switch_active', `the kill switch of user ${record.user} is triggered`);
    if (record.paused) throw new ApiError('kill_switch_active', `webhook ${record.id} is paused`);
    const verdict = this.limits.bucket(record.id, nowMs).take(nowMs);
    if (!verdict.allowed) {
      const limit = `${SIGNALS_PER_WINDOW} signals per ${SIGNAL_WINDOW_MS / 1000} s (burst ${SIGNAL_BURST})`;
      throw new ApiError('rate_limited', `webhook ${record.id} is over its limit of ${limit}`, { headers: verdict.headers });
    }
    try {
      return { signal: parseSignal(body, hook, this.deps.symbols), headers: verdict.headers };
    } catch (err) {
      // The token was taken: the refusal carries the headers that say so.
      if (err instanceof ApiError) throw new ApiError(err.errorName, err.message, { field: err.field, extra: err.extra, headers: verdict.headers });
      throw err;
    }
  }

  private async accept(
    hook: LiveWebhook, signal: Signal, entry: Pick<SignalLogEntry, 'seq' | 'signal_id' | 'at' | 'request_id' | 'ip'>,
    request: Record<string, unknown> | null, startedNs: bigint,
  ): Promise<AcceptedBody> {
    const id = hook.record.id;
    const run = await fanOut(this.deps, id, hook.record.targets, signal, this.deps.deadlineMs);
    const body: AcceptedBody = { status: 'accepted', signal_id: entry.signal_id, fanout: run.answered, latency_ms: elapsedMs(startedNs) };
    const logged: SignalLogEntry = { ...entry, status: 200, outcome: 'accepted', request, fanout: run.answered, latency_ms: body.latency_ms };
    this.deps.signalLog.write(id, run.late > 0 ? { ...logged, pending_targets: run.late } : logged);
    if (run.late > 0) this.deps.signalLog.writeWhen(id, run.final.then((final) => ({ ...logged, fanout: final, pending_targets: 0 })));
    return body;
  }
}
