import type { AddressInfo } from 'node:net';
import { createApp } from './api/app.js';
import type { Config } from './infra/config.js';
import type { Database } from './infra/db/database.js';
import type { Logger } from './infra/logger.js';
import { createServices, type RunningServices } from './create-services.js';

export type RunningServer = { url: string; port: number; services: RunningServices; close(): Promise<void> };

/** Starts the HTTP API; close() stops accepting, lets requests in flight finish, then disconnects. */
export async function startServer(config: Config, logger: Logger, database?: Database): Promise<RunningServer> {
  const services = await createServices(config, logger, database);
  const app = createApp(services);
  const server = app.listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  logger.info({ port, appEnv: config.appEnv, database: config.database.kind }, `listening on port ${port}`);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    services,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await services.close();
    },
  };
}
