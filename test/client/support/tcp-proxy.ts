// A TCP proxy between a client and the server that a test can cut (every connection dies at once,
// as when a network path fails), refuse new connections through, or point at another port.
import net from 'node:net';

export class TcpProxy {
  /** Connections accepted so far. */
  accepted = 0;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private refusing = false;

  private constructor(private readonly server: net.Server, public targetPort: number) {}

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server, targetPort);
    server.on('connection', (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number { return (this.server.address() as net.AddressInfo).port; }

  /** Destroys every open connection, both sides. */
  cut(): void {
    for (const [a, b] of this.pairs) { a.destroy(); b.destroy(); }
    this.pairs.clear();
  }

  /** While true, new connections are reset at once. */
  refuse(on: boolean): void { this.refusing = on; }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    if (this.refusing) { client.destroy(); return; }
    this.accepted++;
    const upstream = net.connect(this.targetPort, '127.0.0.1');
    const pair: [net.Socket, net.Socket] = [client, upstream];
    this.pairs.add(pair);
    const drop = (): void => { client.destroy(); upstream.destroy(); this.pairs.delete(pair); };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
