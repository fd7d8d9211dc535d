import type { Config } from '../src/infra/config.js';
import type { ReadAllPage } from '../src/infra/event-store/eventstoredb-all-pages.js';

// At once, before the modules load (seconds on a busy machine): a line at least every 5 s from the start (contract §20).
const begun = Date.now();
process.stderr.write('rebuilding the read models from the whole log\n');
const [{ loadConfig }, { createDatabase }, { migrateToLatest }, { rebuildReadModels }] = await Promise.all([
  import('../src/infra/config.js'),
  import('../src/infra/db/database.js'),
  import('../src/infra/db/migrate.js'),
  import('../src/projections/rebuild-read-models.js'),
]);

/**
 * npm run rebuild-read-models: empties the read models and replays the whole log into them; with
 * PROJECTIONS=async (always so over EventStoreDB) it also moves the projections runner's checkpoint
 * to where it stopped.
 */
async function openEventStoreDb(config: Config): Promise<{ pages: ReadAllPage; close(): Promise<void> } | undefined> {
  if (config.eventStore !== 'eventstoredb') return undefined;
  // Loaded only here: the gRPC client costs start-up time the PostgreSQL store does not need.
  const [{ EventStoreDBClient }, { eventStoreDbPages }] = await Promise.all([
    import('@eventstore/db-client'),
    import('../src/infra/event-store/eventstoredb-all-pages.js'),
  ]);
  const client = EventStoreDBClient.connectionString(config.eventStoreConnectionString!);
  return { pages: eventStoreDbPages(client), close: () => client.dispose() };
}

const config = loadConfig();
const db = createDatabase(config.database);
const eventStoreDb = await openEventStoreDb(config);
try {
  await migrateToLatest(db);
  const started = Date.now();
  // Progress on stderr, a plain line every 2 s (a terminal, a log file or a job runner alike), counted from the first line.
  let told = begun;
  const { events } = await rebuildReadModels(db, config, {
    eventStoreDb: eventStoreDb?.pages,
    // A server's pool has connections to spare for reading the log ahead; PGlite has one, which the rebuild holds.
    readAheadOn: config.database.kind === 'postgres' ? db : undefined,
    onProgress: (done) => {
      if (Date.now() - told < 2_000) return;
      told = Date.now();
      process.stderr.write(`rebuilding: ${done} events projected in ${((told - started) / 1000).toFixed(1)} s\n`);
    },
  });
  console.log(`rebuilt the read models from ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await eventStoreDb?.close();
  await db.destroy();
}
