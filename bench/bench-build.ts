import { sql } from 'kysely';
import type { Database } from '../src/infra/db/database.js';

/**
 * What a bench does to a seeded database and to the service it starts, in one place for `npm run
 * bench` and for each build of a paired run (bench/paired/): this file is copied into an older
 * build's worktree, so it imports only what every build since 3b696b8 has.
 */

/**
 * Leaves the server as a running service would find it: statistics of the seeded tables known
 * (not with --no-analyze) and the seed's dirty pages written, so that no workload pays for an
 * earlier phase's autovacuum or checkpoint. CHECKPOINT needs a superuser or pg_checkpoint;
 * without, it is skipped.
 */
export async function settle(db: Database, analyze: boolean): Promise<void> {
  if (analyze) await sql`vacuum (analyze)`.execute(db);
  await sql`checkpoint`.execute(db).catch((error: unknown) => console.error(`bench: no CHECKPOINT before the workloads (${error instanceof Error ? error.message : String(error)})`));
}

/**
 * The service's environment in a bench: production mode, the bench's key as the platform's, every
 * request counted against the rate limit (its cost is measured) but never refused.
 */
export function benchServiceEnv(databaseEnv: Record<string, string>, publicKey: string, dataDir: string, webConcurrency?: string): Record<string, string> {
  return { ...databaseEnv, APP_ENV: 'production', PLATFORM_AUTH_ENDPOINT: publicKey, LOG_LEVEL: 'warn', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '1000000000', ...(webConcurrency ? { WEB_CONCURRENCY: webConcurrency } : {}) };
}
