import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Services } from './services.js';
import { ensureDevSigningKey } from './infra/auth/dev-signing-key.js';
import { createTokenVerifier } from './infra/auth/token-verifier.js';
import { ConfigError, type Config } from './infra/config.js';
import { createDatabase, waitUntilIdle, type Database } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { waitForDatabase } from './infra/db/wait-for-database.js';
import { createLocalDeviceDirectory } from './infra/device-service/local-device-directory.js';
import { createRemoteDeviceDirectory } from './infra/device-service/remote-device-directory.js';
import type { DB } from './infra/db/schema.js';
import { createPostgresEventStore } from './infra/event-store/postgres-event-store.js';
import { appendingInPostgresTransactions } from './infra/event-store/appending-in-postgres-transactions.js';
import { createPostgresLogReader } from './infra/event-store/postgres-log-reader.js';
import { projectionsCheckpoint } from './infra/event-store/projection-progress.js';
import type { Logger } from './infra/logger.js';
import { countAppendedEvents } from './infra/metrics/count-appended-events.js';
import { createMonitoring } from './infra/metrics/monitoring.js';
import { eventStoreDbFollowingProjectors, followingProjectors, projectors } from './projections/projectors.js';
import { recordsProjector } from './projections/records/records-projector.js';
import { createPublishing } from './infra/publishing/create-publishing.js';
import { startAsyncProjections } from './workers/projections/start-async-projections.js';

export type RunningServices = Services & { close(): Promise<void> };

/**
 * The event log, its reader and the projectors that follow it. PostgreSQL runs the projectors in the
 * append's transaction, or with PROJECTIONS=async all but those whose rules need it (records).
 * EventStoreDB keeps the log, the read models stay in PostgreSQL, and every projector follows `$all`;
 * record writes also apply theirs in a PostgreSQL transaction around their append.
 */
async function openEventStore(config: Config, db: Database) {
  if (config.eventStore === 'eventstoredb') {
    // Loaded only here: the gRPC client costs start-up time the PostgreSQL store does not need.
    const [{ EventStoreDBClient }, { createEventStoreDbEventStore }, { createEventStoreDbLogReader }] = await Promise.all([
      import('@eventstore/db-client'),
      import('./infra/event-store/eventstoredb-event-store.js'),
      import('./infra/event-store/eventstoredb-log-reader.js'),
    ]);
    const client = EventStoreDBClient.connectionString(config.eventStoreConnectionString!);
    // Record writes check their rules and write their rows in a PostgreSQL transaction of their own
    // around the append; the records projector that follows `$all` meets those rows again.
    const store = appendingInPostgresTransactions(createEventStoreDbEventStore<Transaction<DB>>(client), { db, projections: [recordsProjector] });
    return { store, logReader: createEventStoreDbLogReader(client, db), following: eventStoreDbFollowingProjectors, closeStore: () => client.dispose() };
  }
  const following = config.projections === 'async' ? followingProjectors : [];
  const store = createPostgresEventStore(db, { projections: projectors.filter((p) => !following.includes(p)) });
  return { store, logReader: createPostgresLogReader(db), following, closeStore: async () => undefined };
}

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
  const { store, logReader, following, closeStore } = await openEventStore(config, db);
  // Through `services.now`, which a test may replace to move the clock.
  const monitoring = createMonitoring(db, () => logReader.readProcessorLags(), () => services.now());
  const asyncProjections = following.length > 0 ? startAsyncProjections({ config, db, logger }, store, following) : undefined;
  // Every process that serves commands runs the runner (one active): its health and metrics tell
  // where the shared checkpoint stands, whichever process is active.
  if (asyncProjections) monitoring.workers.track(projectionsCheckpoint);
  const services: RunningServices = {
    config,
    db,
    logger,
    eventStore: countAppendedEvents(asyncProjections?.eventStore ?? store, monitoring.eventsAppended),
    now: () => Temporal.Now.instant(),
    monitoring,
    devices: config.deviceServiceUrl ? createRemoteDeviceDirectory(config.deviceServiceUrl) : createLocalDeviceDirectory(db),
    verifyToken,
    publishing: createPublishing(config, logger),
    logReader,
    close: async () => {
      await asyncProjections?.stop();
      await closeStore();
      if (database) return;
      await waitUntilIdle(db);
      await db.destroy();
    },
  };
  return services;
}
