import cliProgress from 'cli-progress';
import { Temporal } from 'temporal-polyfill';
import { archiveBookings } from '../src/commands/booking/archive-bookings.js';
import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../src/infra/logger.js';
import { projectors } from '../src/projections/projectors.js';

/**
 * npm run archive -- --before <instant>: archives now every booking that ended before the instant
 * (contract §13, retention), progress on stderr. Idempotent; after a crash, run it again.
 */
function beforeOf(args: string[]): Temporal.Instant | string {
  const at = args.indexOf('--before');
  const raw = at >= 0 ? args[at + 1] : undefined;
  if (!raw) return 'usage: npm run archive -- --before <ISO 8601 instant, e.g. 2024-01-01T00:00:00Z>';
  try {
    return Temporal.Instant.from(raw);
  } catch {
    return `--before must be an ISO 8601 instant with an offset or Z, got "${raw}"`;
  }
}

const before = beforeOf(process.argv.slice(2));
if (typeof before === 'string') {
  console.error(before);
  process.exit(2);
}
const config = loadConfig();
const db = createDatabase(config.database);
const bar = new cliProgress.SingleBar(
  // Also when stderr is no terminal (a log file, a job runner): a line every few seconds.
  { stream: process.stderr, format: 'archiving {bar} {value}/{total} bookings', noTTYOutput: true, notTTYSchedule: 5_000 }, cliProgress.Presets.shades_classic);
try {
  await migrateToLatest(db);
  bar.start(0, 0);
  const ctx = { db, eventStore: createPostgresEventStore(db, { projections: projectors }), now: () => Temporal.Now.instant(), logger: createLogger('warn') };
  const { archived } = await archiveBookings(ctx, before, (done, total) => {
    bar.setTotal(total);
    bar.update(done);
  });
  bar.stop();
  console.log(`archived ${archived} bookings that ended before ${before.toString()}`);
} finally {
  bar.stop();
  await db.destroy();
}
