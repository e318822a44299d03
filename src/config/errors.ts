// Why start-up stopped. One error type for the flags, the files, the configuration and the fixture,
// so `main` prints one line and exits; the message names the key path (DECISIONS "Running it").

export type ConfigErrorKind = 'config' | 'seed';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  /**
   * @param kind    which document was at fault: the configuration or the bootstrap fixture
   * @param path    key path within it ("http.port", "accounts[2].leverage"), or null when the fault
   *                is not a value (a flag, an unreadable file)
   * @param reason  what is wrong, with the offending value where there is one
   */
  constructor(readonly kind: ConfigErrorKind, readonly path: string | null, readonly reason: string) {
    super(path === null ? `${kind} error: ${reason}` : `${kind} error at ${path}: ${reason}`);
  }
}

/**
 * A bad value found by a checker in `check.ts`, before it is known which document it sits in;
 * the validators turn it into a ConfigError of their kind.
 */
export class InvalidValue extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path}: ${reason}`);
  }
}
