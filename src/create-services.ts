import { Temporal } from 'temporal-polyfill';
import type { Services } from './services.js';
import { ensureDevSigningKey } from './infra/auth/dev-signing-key.js';
import { createTokenVerifier } from './infra/auth/token-verifier.js';
import { ConfigError, type Config } from './infra/config.js';
import { createDatabase, waitUntilIdle, type Database } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { createReadRouting } from './infra/db/read-routing.js';
import { waitForDatabase } from './infra/db/wait-for-database.js';
import { createLocalDeviceDirectory } from './infra/device-service/local-device-directory.js';
import { createRemoteDeviceDirectory } from './infra/device-service/remote-device-directory.js';
import { projectionsCheckpoint } from './infra/event-store/projection-progress.js';
import type { Logger } from './infra/logger.js';
import { countAppendedEvents } from './infra/metrics/count-appended-events.js';
import { createMonitoring } from './infra/metrics/monitoring.js';
import { createPublishing } from './infra/publishing/create-publishing.js';
import { openEventStore } from './open-event-store.js';

export type RunningServices = Services & { close(): Promise<void> };

function keySource(config: Config, logger: Logger): string {
  if (config.auth.endpoint) return config.auth.endpoint;
  if (config.appEnv !== 'development') throw new ConfigError('PLATFORM_AUTH_ENDPOINT is required outside development');
  logger.warn({ dataDir: config.dataDir }, 'development mode: trusting only the dev signing key in DATA_DIR (mint tokens with `npm run token`)');
  return ensureDevSigningKey(config.dataDir).publicKeyPem;
}

/**
 * Connects, migrates and wires everything the API and the workers use. A database handed in
 * (tests on the embedded engine) is used as it is and left open on close.
 */
export async function createServices(config: Config, logger: Logger, database?: Database): Promise<RunningServices> {
  const verifyToken = createTokenVerifier({
    keySource: keySource(config, logger),
    issuer: config.auth.issuer,
    audience: config.auth.audience,
    rolesClaim: config.auth.rolesClaim,
    groupsClaim: config.auth.groupsClaim,
  });
  const db = database ?? createDatabase(config.database);
  if (!database && config.database.kind === 'postgres') {
    const { host, port, database: name } = config.database;
    try {
      await waitForDatabase(db, { timeoutSeconds: config.dbConnectTimeoutSeconds, where: `${host}:${port}/${name ?? ''}`, logger });
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  await migrateToLatest(db);
  const { eventStore, logReader, logReaderOn, projectionsActive, close: closeStore } = await openEventStore(config, db, logger);
  const reads = createReadRouting(db, config.database, logger);
  const checks = !database && config.database.kind === 'postgres' ? createDatabase({ ...config.database, poolSize: 1 }) : db;
  // Through `services.now`, which a test may replace to move the clock.
  const checksLog = logReaderOn(checks);
  const monitoring = createMonitoring(db, () => checksLog.readProcessorLags(), () => services.now());
  // Every process that serves commands runs the runner (one active): its health and metrics tell
  // where the shared checkpoint stands, whichever process is active.
  if (projectionsActive) monitoring.workers.track(projectionsCheckpoint, projectionsActive);
  const services: RunningServices = {
    config,
    db,
    logger,
    eventStore: countAppendedEvents(eventStore, monitoring.eventsAppended),
    now: () => Temporal.Now.instant(),
    monitoring,
    checks,
    devices: config.deviceServiceUrl ? createRemoteDeviceDirectory(config.deviceServiceUrl) : createLocalDeviceDirectory(db),
    verifyToken,
    publishing: createPublishing(config, logger),
    logReader,
    logReaderOn,
    reads,
    close: async () => {
      await reads.close();
      await closeStore();
      if (checks !== db) await checks.destroy();
      if (database) return;
      await waitUntilIdle(db);
      await db.destroy();
    },
  };
  return services;
}
