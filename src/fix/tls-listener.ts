// The FIX listener: TLS 1.3 only (spec "FIX 4.4 gateway": TLS 1.3 required). A handshake must
// finish within the logon timeout; anything that is not TLS 1.3 fails the handshake and is
// dropped by node:tls before a session exists.
import tls, { type TLSSocket } from 'node:tls';
import type { SessionLog } from './session/types.js';

export interface TlsListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly cert: string;
  readonly key: string;
  readonly handshakeTimeoutMs: number;
}

export interface TlsListener {
  readonly port: number;
  /** Stops accepting; live connections are left to their sessions. */
  close(): void;
}

export function listenTls(opts: TlsListenerOptions, log: SessionLog, onConnection: (socket: TLSSocket) => void): Promise<TlsListener> {
  const server = tls.createServer({
    cert: opts.cert, key: opts.key, minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3', handshakeTimeout: opts.handshakeTimeoutMs,
  }, onConnection);
  server.on('tlsClientError', (err, socket) => log.info({ remote: socket.remoteAddress, err: err.message }, 'fix: TLS handshake failed'));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      server.on('error', (err) => log.error({ err }, 'fix: listener error'));
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : opts.port;
      resolve({ port, close: () => server.close() });
    });
  });
}
