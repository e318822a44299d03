// The bench's HTTP load driver against real loopback servers: a server that drops a connection
// with a request unanswered fails the run (it once hung a whole `make bench`), and a connection
// the server closed while idle (its keep-alive timeout) is not used again.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedLoop, fixedRate } from '../../bench/support/http-load.js';

const REQUEST = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => { s.close(resolve); })));
});

/** A server that answers each request on a connection unless `drop` says to close it instead. */
async function server(drop: (nth: number) => boolean): Promise<{ port: number; perConnection: number[] }> {
  const perConnection: number[] = [];
  let requests = 0;
  const s = net.createServer((socket) => {
    const index = perConnection.push(0) - 1;
    // The driver resets every connection of a failed run.
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      for (let at = chunk.indexOf('\r\n\r\n'); at >= 0; at = chunk.indexOf('\r\n\r\n', at + 4)) {
        if (drop(++requests)) {
          socket.destroy();
          return;
        }
        perConnection[index]!++;
        socket.write(OK);
      }
    });
  });
  servers.push(s);
  await new Promise<void>((resolve) => { s.listen(0, '127.0.0.1', resolve); });
  return { port: (s.address() as net.AddressInfo).port, perConnection };
}

describe('bench HTTP load driver', () => {
  it('fails a fixed-rate run whose connection the server closed with a request unanswered', async () => {
    const { port } = await server((n) => n === 5);
    await expect(fixedRate({ port, connections: 4, ratePerSec: 1000, warmup: 0, count: 20, request: () => REQUEST }))
      .rejects.toThrow('the server closed a connection with 1 request(s) unanswered');
  });

  it('fails a closed-loop run the same way', async () => {
    const { port } = await server((n) => n === 50);
    await expect(closedLoop({ port, connections: 2, depth: 1, warmupMs: 10, durationMs: 50, request: () => REQUEST }))
      .rejects.toThrow('unanswered');
  });

  it('leaves a connection the server closed while idle and goes on with the others', async () => {
    // As a keep-alive timeout does, scaled down: a connection idle for 20 ms is closed, here the
    // first two that answered. The next request is due 200 ms after an answer, long after the
    // close, so the driver must skip them; closing right behind an answer would race the request
    // (libuv may send the FIN a loop turn after the answer).
    let closed = 0;
    const s = net.createServer((socket) => {
      socket.on('error', () => undefined);
      let idleTimer: NodeJS.Timeout | undefined;
      socket.on('close', () => clearTimeout(idleTimer));
      socket.on('data', () => {
        clearTimeout(idleTimer);
        socket.write(OK);
        idleTimer = setTimeout(() => {
          if (closed < 2) { closed++; socket.destroy(); }
        }, 20);
      });
    });
    servers.push(s);
    await new Promise<void>((resolve) => { s.listen(0, '127.0.0.1', resolve); });
    const port = (s.address() as net.AddressInfo).port;
    const r = await fixedRate({ port, connections: 3, ratePerSec: 5, warmup: 0, count: 5, request: () => REQUEST });
    expect(closed).toBe(2);
    expect(r.completed).toBe(5);
    expect(r.statuses.get(200)).toBe(5);
  });

  it('counts a request from its intended time, and apart from its write: a wait for a free connection is in the first only', async () => {
    const ANSWER_MS = 30;
    const s = net.createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => { setTimeout(() => socket.write(OK), ANSWER_MS); });
    });
    servers.push(s);
    await new Promise<void>((resolve) => { s.listen(0, '127.0.0.1', resolve); });
    const port = (s.address() as net.AddressInfo).port;
    // Four requests 10 ms apart on one connection: each waits for the answers before it.
    const r = await fixedRate({ port, connections: 1, ratePerSec: 100, warmup: 0, count: 4, request: () => REQUEST });
    expect(r.fromWriteUs!.totalCount).toBe(4);
    // A timer can fire a little early (libuv counts from the loop's cached time), hence the slack.
    expect(r.fromWriteUs!.minNonZeroValue).toBeGreaterThanOrEqual((ANSWER_MS - 10) * 1000);
    // The last, due at 30 ms, is written only after three answers (about 90 ms): its wait for the
    // connection, about 60 ms, is in the time from its intended send and not in the time from its write.
    expect(r.latencyUs.maxValue).toBeGreaterThanOrEqual(r.fromWriteUs!.maxValue + (ANSWER_MS - 10) * 1000);
  });
});
