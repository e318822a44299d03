// Binding a uWS app: port 0 means any free port, and the bound one is read back for the ready line.
import type { TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { uws } from './uws.js';

export interface Listening { readonly name: string; readonly host: string; readonly port: number; close(): void }

export function listen(app: TemplatedApp, host: string, port: number, name: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    app.listen(host, port, (socket: us_listen_socket | false) => {
      if (!socket) { reject(new Error(`${name} listener could not bind ${host}:${port}`)); return; }
      const uWS = uws();
      resolve({ name, host, port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}
