import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { rebuildReadModels } from '../src/projections/rebuild-read-models.js';

/**
 * npm run rebuild-read-models: empties the read models and replays the whole log into them; with
 * PROJECTIONS=async it also moves the projections runner's checkpoint to where it stopped.
 */
const config = loadConfig();
if (config.eventStore === 'eventstoredb') {
  // It reads PostgreSQL's log, which EventStoreDB's events never enter: it would empty the read models.
  console.error('npm run rebuild-read-models reads the PostgreSQL event log: it cannot rebuild from EventStoreDB (EVENT_STORE=eventstoredb)');
  process.exit(2);
}
const db = createDatabase(config.database);
try {
  await migrateToLatest(db);
  const started = Date.now();
  const { events } = await rebuildReadModels(db, config);
  console.log(`rebuilt the read models from ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
}
