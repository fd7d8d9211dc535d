import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { openLogReader } from '../src/infra/event-store/open-log-reader.js';
import { verifyHashChainsInParallel } from '../src/infra/event-store/verify-hash-chains-in-parallel.js';

/**
 * npm run verify-log [-- --workers N]: recomputes every stream's hash chain in the configured store;
 * exits 1 naming the first event that does not match. `--workers N` (PostgreSQL, 1–8, default 1)
 * verifies N ranges of streams at once, N − 1 of them on worker threads with a connection each:
 * faster when the machine has CPUs to spare beside the database server (on two CPUs shared with
 * it: +15 %), but about 85 MB more per worker. The default stays well under contract §20's 512 MB
 * whatever the log's length; with workers the tool may not (501 MiB with one, at 10 M events).
 */
function workersOption(): number {
  const usage = 'usage: npm run verify-log [-- --workers N (1–8)]';
  try {
    const { values } = parseArgs({ options: { workers: { type: 'string', default: '1' } } });
    const workers = Number(values.workers);
    if (/^\d+$/.test(values.workers) && workers >= 1 && workers <= 8) return workers;
    console.error(`--workers must be a whole number from 1 to 8, got "${values.workers}"; ${usage}`);
  } catch (error) {
    console.error(`${(error as Error).message}; ${usage}`);
  }
  process.exit(2);
}

const workers = workersOption();
const config = loadConfig();
if (workers > 1 && (config.database.kind !== 'postgres' || config.eventStore !== 'postgres')) {
  console.error('--workers needs the events in PostgreSQL (DB_HOST set, EVENT_STORE=postgres)');
  process.exit(2);
}
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
  const onProgress = (done: number, total: number) => {
    bar.setTotal(total);
    bar.update(done);
  };
  const { checked, breaks } =
    workers > 1 && config.database.kind === 'postgres'
      ? await verifyHashChainsInParallel(db, config.database, { parts: workers, onProgress })
      : await log.reader.verifyHashChains(onProgress);
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
