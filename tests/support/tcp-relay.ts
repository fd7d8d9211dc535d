import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP relay between the service processes and PostgreSQL that a test can cut. */
export type TcpRelay = {
  port: number;
  /** Connections relayed now. */
  readonly open: number;
  /** Local ports of the relay's connections to the target: PostgreSQL's `client_port` of the service's backends. */
  upstreamPorts(): number[];
  /**
   * Stops forwarding on the connections open now, in both directions, without closing them: a
   * silent network partition (new connections are relayed as usual).
   */
  freeze(): void;
  /** Closes every relayed connection and refuses new ones until accept(). Answers how many it closed. */
  cutAndRefuse(): Promise<number>;
  /** Listens again on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
};

/** Listens on `host` (loopback by default; a test host's gateway address to serve a network namespace). */
export async function startTcpRelay(target: { host: string; port: number }, port = 0, host = '127.0.0.1'): Promise<TcpRelay> {
  type Pair = { client: net.Socket; upstream: net.Socket; frozen: boolean };
  const pairs = new Set<Pair>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const pair: Pair = { client, upstream, frozen: false };
    pairs.add(pair);
    const end = () => {
      // A frozen connection neither forwards nor reports that its other side went away.
      if (pair.frozen) return;
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (at: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(port);
  const relayPort = (server.address() as AddressInfo).port;
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  const destroyAll = () => {
    const count = pairs.size;
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
    return count;
  };
  return {
    port: relayPort,
    get open() {
      return pairs.size;
    },
    upstreamPorts: () => [...pairs].map(({ upstream }) => upstream.localPort).filter((p): p is number => typeof p === 'number'),
    freeze() {
      for (const pair of pairs) {
        pair.frozen = true;
        pair.client.unpipe(pair.upstream).pause();
        pair.upstream.unpipe(pair.client).pause();
      }
    },
    async cutAndRefuse() {
      const closing = stopListening();
      const count = destroyAll();
      await closing;
      return count;
    },
    accept: () => listen(relayPort),
    async close() {
      const closing = stopListening();
      destroyAll();
      await closing;
    },
  };
}
