// The baseline of the FIX round-trip benchmark: a bare TLS 1.3 echo server (same certificate kind,
// Nagle off, no setEncoding) in its own process, like the service, so the driver measures what
// TLS, loopback and two event loops cost before any FIX work. Prints {"port": n, "cert": pem}.
import tls from 'node:tls';
import { selfSignedCertificate } from '../../src/fix/tls-cert.js';

const pair = selfSignedCertificate(Date.now());
const server = tls.createServer({ cert: pair.cert, key: pair.key, minVersion: 'TLSv1.3' }, (socket) => {
  socket.setNoDelay(true);
  socket.on('data', (chunk: Buffer) => socket.write(chunk));
  socket.on('error', () => undefined);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port, cert: pair.cert })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
