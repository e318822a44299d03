// pino JSON lines on stdout (DECISIONS "Running it"). Worker threads write to fd 1 directly so a
// line never waits on the main thread's event loop.
import { pino, type Logger } from 'pino';

export type { Logger };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}): Logger {
  return pino({ level, base: { pid: process.pid, ...bindings } }, pino.destination({ fd: 1, sync: true }));
}
