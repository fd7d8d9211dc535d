import type { Writable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import cliProgress from 'cli-progress';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { archiveBookings } from '../../commands/booking/archive-bookings.js';
import { loadConfig, type Config } from '../../infra/config.js';
import { createDatabase, type Database } from '../../infra/db/database.js';
import { migrateToLatest } from '../../infra/db/migrate.js';
import type { DB } from '../../infra/db/schema.js';
import type { EventStore } from '../../infra/event-store/event-store.js';
import { createLogger, prettyLogs, type Logger } from '../../infra/logger.js';

/** The store the script appends through, as the composition root opens it (open-event-store.ts), and its closing. */
export type OpenStore = (config: Config, db: Database, logger: Logger) => Promise<{ eventStore: EventStore<Transaction<DB>>; close(): Promise<void> }>;

/**
 * Where the script's configuration comes from and where it writes (the final line on stdout,
 * everything else on stderr), and how it opens the store: handed in by scripts/archive.ts.
 */
export type ArchiveScriptIo = { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable; openStore: OpenStore };

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

/**
 * npm run archive -- --before <instant>: archives now every booking that ended before the instant
 * (contract §13, retention), progress on stderr; answers the exit code, 2 on a bad argument.
 * It appends through the store the service uses in this configuration (EVENT_STORE, PROJECTIONS),
 * beside a running service or without one. Idempotent; after a crash, run it again. A database
 * handed in (tests on the embedded engine) is used as it is and left open.
 */
export async function runArchiveScript(args: string[], io: ArchiveScriptIo, database?: Database): Promise<number> {
  const before = beforeOf(args);
  if (typeof before === 'string') {
    io.stderr.write(`${before}\n`);
    return 2;
  }
  const config = loadConfig(io.env);
  const db = database ?? createDatabase(config.database);
  const bar = new cliProgress.SingleBar(
    // Also when stderr is no terminal (a log file, a job runner): a line every 2 s (§20: at least every 5 s).
    { stream: io.stderr, format: 'archiving {bar} {value}/{total} bookings', noTTYOutput: true, notTTYSchedule: 2_000 },
    cliProgress.Presets.shades_classic,
  );
  const logger = createLogger('warn', prettyLogs(io.env, (io.stderr as Partial<WriteStream>).isTTY === true), io.stderr);
  let store: Awaited<ReturnType<OpenStore>> | undefined;
  try {
    await migrateToLatest(db);
    store = await io.openStore(config, db, logger);
    bar.start(0, 0);
    const ctx = { db, eventStore: store.eventStore, now: () => Temporal.Now.instant(), logger };
    const { archived } = await archiveBookings(ctx, before, (done, total) => {
      bar.setTotal(total);
      bar.update(done);
    });
    bar.stop();
    io.stdout.write(`archived ${archived} bookings that ended before ${before.toString()}\n`);
    return 0;
  } finally {
    bar.stop();
    await store?.close();
    if (!database) await db.destroy();
  }
}
