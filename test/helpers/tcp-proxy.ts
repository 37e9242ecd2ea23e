import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Destroys every open connection and refuses new ones (each is closed as it arrives). */
  cut(): void;
  /** Destroys every open connection and lets new ones in without ever answering (a network
   * partition: the peer neither refuses nor replies). */
  blackhole(): void;
  /** Lets connections through again. */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of `target`, to make a server (PostgreSQL...) go away and
 * come back in the middle of a test. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let down: false | 'refuse' | 'blackhole' = false;
  const server = net.createServer((client) => {
    if (down === 'refuse') {
      client.destroy();
      return;
    }
    if (down === 'blackhole') {
      open.add(client);
      client.on('close', () => open.delete(client));
      client.on('error', () => client.destroy());
      client.resume();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = 'refuse';
      for (const s of open) s.destroy();
    },
    blackhole() {
      down = 'blackhole';
      for (const s of open) s.destroy();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
