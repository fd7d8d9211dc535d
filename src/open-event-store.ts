import type { Transaction } from 'kysely';
import type { Config } from './infra/config.js';
import type { Database, Executor } from './infra/db/database.js';
import type { DB } from './infra/db/schema.js';
import { appendingInPostgresTransactions } from './infra/event-store/appending-in-postgres-transactions.js';
import type { EventStore } from './infra/event-store/event-store.js';
import type { LogReader } from './infra/event-store/log-reader.js';
import { createPostgresEventStore } from './infra/event-store/postgres-event-store.js';
import { createPostgresLogReader } from './infra/event-store/postgres-log-reader.js';
import type { Logger } from './infra/logger.js';
import { eventStoreDbFollowingProjectors, followingProjectors, projectors } from './projections/projectors.js';
import { recordsProjector } from './projections/record/records-projector.js';
import { startAsyncProjections } from './workers/projections/start-async-projections.js';

export type OpenedEventStore = {
  /** The store commands append through; when the read models follow the log, it waits for them (`projectsAfterCommit`). */
  eventStore: EventStore<Transaction<DB>>;
  /** The reader of the same log. */
  logReader: LogReader;
  /** The reader of the same log on another PostgreSQL database holding it (a replica). */
  logReaderOn(db: Executor): LogReader;
  /** Set where this process runs the projections runner: whether it holds the runner's lock now. */
  projectionsActive?: () => boolean;
  /** Stops the projections runner, then closes the connection to the store. */
  close(): Promise<void>;
};

/**
 * The event log, its reader and the projectors that follow it, for every process that appends (the
 * service, npm run archive). PostgreSQL runs the projectors in the append's transaction, or with
 * PROJECTIONS=async all but those whose rules need it (records). EventStoreDB keeps the log, the
 * read models stay in PostgreSQL, and every projector follows `$all`; record writes also apply
 * theirs in a PostgreSQL transaction around their append. Where projectors follow the log, this
 * process runs the runner too (one active at a time).
 */
export async function openEventStore(config: Config, db: Database, logger: Logger): Promise<OpenedEventStore> {
  const { store, logReader, following, closeStore } = await connectEventStore(config, db);
  // EventStoreDB keeps the log itself: a replica of PostgreSQL holds none of it.
  const logReaderOn = config.eventStore === 'postgres' ? createPostgresLogReader : () => logReader;
  if (following.length === 0) return { eventStore: store, logReader, logReaderOn, close: closeStore };
  const asyncProjections = startAsyncProjections({ config, db, logger }, store, following);
  return {
    eventStore: asyncProjections.eventStore,
    logReader,
    logReaderOn,
    projectionsActive: asyncProjections.isActive,
    async close() {
      await asyncProjections.stop();
      await closeStore();
    },
  };
}

async function connectEventStore(config: Config, db: Database) {
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
  const store = createPostgresEventStore(db, { projections: projectors.filter((p) => !following.includes(p)), turns: config.database.kind === 'postgres' });
  return { store, logReader: createPostgresLogReader(db), following, closeStore: async () => undefined };
}
