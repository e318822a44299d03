// The dead-man's switch as REST (POST /v1/cancel-all-after) and the stream (op cancel_all_after)
// take it: `timeout_ms` 0 disarms, otherwise it must lie in config dead_man's range (BitMEX and
// Kraken take a few seconds to minutes; a bot re-arms it well before it runs out). The answer
// says when it fires, in the server's clock.
import type { AppConfig } from '../config/types.js';
import type { ArmDeadMan, DeadManResult, UnixMs } from '../engine/types.js';
import { ApiError } from './errors.js';
import { iso } from './wire.js';

export interface DeadManRequest { readonly timeoutMs: number; readonly closePositions: boolean }

export function parseDeadManRequest(body: Readonly<Record<string, unknown>>, range: AppConfig['dead_man']): DeadManRequest {
  const timeout = body['timeout_ms'];
  if (timeout === undefined || timeout === null) throw new ApiError('bad_request', 'timeout_ms is required (0 disarms)', { field: 'timeout_ms' });
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout)) throw new ApiError('bad_request', 'timeout_ms must be an integer number of milliseconds', { field: 'timeout_ms' });
  if (timeout !== 0 && (timeout < range.min_timeout_ms || timeout > range.max_timeout_ms)) {
    throw new ApiError('bad_request', `timeout_ms must be 0 (disarm) or from ${range.min_timeout_ms} to ${range.max_timeout_ms}`, { field: 'timeout_ms' });
  }
  const close = body['close_positions'];
  if (close !== undefined && close !== null && typeof close !== 'boolean') throw new ApiError('bad_request', 'close_positions must be true or false', { field: 'close_positions' });
  return { timeoutMs: timeout, closePositions: close === true };
}

export function armCommand(login: string, keyId: string, r: DeadManRequest): ArmDeadMan {
  return { kind: 'armDeadMan', login, keyId, timeoutMs: r.timeoutMs, closePositions: r.closePositions };
}

export interface DeadManJson {
  login: string;
  key_id: string;
  armed: boolean;
  close_positions: boolean;
  /** When it fires (server clock); null when disarmed. */
  deadline_ms: number | null;
  deadline: string | null;
  now_ms: number;
}

export function deadManJson(r: DeadManResult, nowMs: UnixMs): DeadManJson {
  return {
    login: r.login, key_id: r.keyId, armed: r.armed !== null, close_positions: r.armed?.closePositions ?? false,
    deadline_ms: r.armed?.deadlineMs ?? null, deadline: r.armed === null ? null : iso(r.armed.deadlineMs), now_ms: nowMs,
  };
}
