import type { Config } from '../config.js';
import type { Executor } from '../db/database.js';
import type { LogReader } from './log-reader.js';
import { createPostgresLogReader } from './postgres-log-reader.js';

/** The reader of the log kept by the configured store (EVENT_STORE), for a script that only reads it. */
export async function openLogReader(config: Config, db: Executor): Promise<{ reader: LogReader; close(): Promise<void> }> {
  if (config.eventStore === 'eventstoredb') {
    // Loaded only here: the gRPC client costs start-up time the PostgreSQL store does not need.
    const [{ EventStoreDBClient }, { createEventStoreDbLogReader }] = await Promise.all([
      import('@eventstore/db-client'),
      import('./eventstoredb-log-reader.js'),
    ]);
    const client = EventStoreDBClient.connectionString(config.eventStoreConnectionString!);
    return { reader: createEventStoreDbLogReader(client, db), close: () => client.dispose() };
  }
  return { reader: createPostgresLogReader(db), close: async () => undefined };
}
