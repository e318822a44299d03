// The baseline of the REST benchmark: a bare uWebSockets.js route answering "hello world", run as
// its own process like the service, so both are loaded by the same driver the same way.
// Prints {"port": n} on stdout once listening.
import { uws } from '../../src/gateway/uws.js';

const uWS = uws();
const app = uWS.App().get('/hello', (res) => { res.end('hello world'); });
app.listen('127.0.0.1', 0, (socket) => {
  if (!socket) throw new Error('hello server could not listen');
  process.stdout.write(`${JSON.stringify({ port: uWS.us_socket_local_port(socket) })}\n`);
});
