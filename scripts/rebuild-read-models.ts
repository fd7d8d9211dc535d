import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { rebuildReadModels } from '../src/projections/rebuild-read-models.js';

/** npm run rebuild-read-models: empties the inline read models and replays the whole log into them. */
const config = loadConfig();
const db = createDatabase(config.database);
try {
  await migrateToLatest(db);
  const started = Date.now();
  const { events } = await rebuildReadModels(db);
  console.log(`rebuilt the read models from ${events} events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.destroy();
}
