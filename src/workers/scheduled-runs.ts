import { Temporal } from 'temporal-polyfill';
import type { Executor } from '../infra/db/database.js';

/** When the daily job `name` last ran to its end; null when it never has. */
export async function readLastRun(db: Executor, name: string): Promise<Temporal.Instant | null> {
  const row = await db.selectFrom('scheduled_runs').select('last_run_at').where('name', '=', name).executeTakeFirst();
  return row ? Temporal.Instant.fromEpochMilliseconds(row.last_run_at.getTime()) : null;
}

export async function recordRun(db: Executor, name: string, at: Temporal.Instant): Promise<void> {
  const lastRunAt = new Date(at.epochMilliseconds);
  await db
    .insertInto('scheduled_runs')
    .values({ name, last_run_at: lastRunAt })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ last_run_at: lastRunAt }))
    .execute();
}
