import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from './api/app.js';
import { createDraining } from './api/draining.js';
import type { Config } from './infra/config.js';
import type { Database } from './infra/db/database.js';
import type { Logger } from './infra/logger.js';
import { createServices, type RunningServices } from './create-services.js';

export type DrainOptions = {
  /** How long new connections are still accepted once health answers 503: a load balancer's checks take the node out meanwhile. */
  noticeMs: number;
  /** Epoch ms: requests still in flight then are cut (SHUTDOWN_GRACE_SECONDS after the signal). */
  deadline: number;
  /** Work to finish before disconnecting from the database (the workers stopping, meanwhile). */
  alongside?: Promise<unknown>;
};

export type RunningServer = {
  url: string;
  port: number;
  services: RunningServices;
  /** Stops accepting, lets requests in flight finish, then disconnects. */
  close(): Promise<void>;
  /**
   * The graceful shutdown of SIGTERM (contract §19): health answers 503 and every answer closes its
   * connection at once; new connections are accepted for `noticeMs` more, then none; requests in
   * flight finish until the deadline, when the connections left are cut; then it disconnects.
   * Resolves how many connections were cut.
   */
  drain(options: DrainOptions): Promise<{ cut: number }>;
};

/**
 * Starts the HTTP API; close() stops accepting, lets requests in flight finish, then disconnects.
 * `beforeListening` runs once the services are made and before any request is taken.
 */
export async function startServer(config: Config, logger: Logger, database?: Database, beforeListening?: (services: RunningServices) => Promise<void>): Promise<RunningServer> {
  const services = await createServices(config, logger, database);
  await beforeListening?.(services);
  const draining = createDraining();
  const app = createApp(services, draining);
  const server = app.listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ port, appEnv: config.appEnv, database: config.database.kind }, `listening on port ${port}`);
  const stopAccepting = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    services,
    async close() {
      await stopAccepting();
      await services.close();
    },
    async drain({ noticeMs, deadline, alongside }) {
      draining.start();
      const untilDeadline = () => Math.max(0, deadline - Date.now());
      await sleep(Math.min(noticeMs, untilDeadline()));
      const stopped = stopAccepting();
      const inTime = await Promise.race([stopped.then(() => true), sleep(untilDeadline(), false, { ref: false })]);
      let cut = 0;
      if (!inTime) {
        cut = connections.size;
        logger.warn({ connections: cut }, 'SHUTDOWN_GRACE_SECONDS passed: cutting the requests still in flight');
        server.closeAllConnections();
        await stopped;
      }
      await alongside;
      await services.close();
      return { cut };
    },
  };
}
