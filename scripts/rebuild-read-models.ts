import { loadConfig, type Config } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import type { EventStore } from '../src/infra/event-store/event-store.js';
import { rebuildReadModels } from '../src/projections/rebuild-read-models.js';

/**
 * npm run rebuild-read-models: empties the read models and replays the whole log into them; with
 * PROJECTIONS=async (always so over EventStoreDB) it also moves the projections runner's checkpoint
 * to where it stopped.
 */
async function openEventStoreDb(config: Config): Promise<{ store: EventStore; close(): Promise<void> } | undefined> {
  if (config.eventStore !== 'eventstoredb') return undefined;
  // Loaded only here: the gRPC client costs start-up time the PostgreSQL store does not need.
  const [{ EventStoreDBClient }, { createEventStoreDbEventStore }] = await Promise.all([
    import('@eventstore/db-client'),
    import('../src/infra/event-store/eventstoredb-event-store.js'),
  ]);
  const client = EventStoreDBClient.connectionString(config.eventStoreConnectionString!);
  return { store: createEventStoreDbEventStore(client), close: () => client.dispose() };
}

const config = loadConfig();
const db = createDatabase(config.database);
const eventStoreDb = await openEventStoreDb(config);
try {
  await migrateToLatest(db);
  const started = Date.now();
  const { events } = await rebuildReadModels(db, config, eventStoreDb?.store);
  console.log(`rebuilt the read models from ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await eventStoreDb?.close();
  await db.destroy();
}
