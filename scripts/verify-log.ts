import cliProgress from 'cli-progress';
import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { openLogReader } from '../src/infra/event-store/open-log-reader.js';

/** npm run verify-log: recomputes every stream's hash chain in the configured store; exits 1 naming the first event that does not match. */
const config = loadConfig();
const db = createDatabase(config.database);
// Also when stderr is no terminal (a log file, a job runner): a plain line every 2 s.
const bar = new cliProgress.SingleBar(
  { stream: process.stderr, format: 'verifying {bar} {value}/{total} events', noTTYOutput: true, notTTYSchedule: 2_000 },
  cliProgress.Presets.shades_classic,
);
const log = await openLogReader(config, db);
try {
  await migrateToLatest(db);
  bar.start(0, 0);
  const { checked, breaks } = await log.reader.verifyHashChains((done, total) => {
    bar.setTotal(total);
    bar.update(done);
  });
  bar.stop();
  const [first] = breaks;
  if (first) {
    console.error(
      `hash chain broken: event ${first.eventId} (position ${first.globalPosition}, stream ${first.streamId}, revision ${first.revision}): ${first.reason}` +
        (breaks.length > 1 ? `; ${breaks.length - 1} more stream(s) broken` : ''),
    );
    process.exitCode = 1;
  } else {
    console.log(`verified ${checked} events: every chain holds`);
  }
} finally {
  bar.stop();
  await log.close();
  await db.destroy();
}
