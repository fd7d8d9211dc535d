import { sql } from 'kysely';
import type { Database } from '../../infra/db/database.js';
import type { TimerRow } from '../../infra/db/tables/timers.table.js';

export type ClaimOptions = {
  /** The domain's present: timers due by then are claimed. */
  now: Date;
  /** Wall-clock present, for leases. */
  wallNow: Date;
  leaseMs: number;
  reminderMinutes: number;
  limit: number;
};

/**
 * Claims due timers that no worker holds: SKIP LOCKED lets several workers share the work without
 * waiting on each other, and the lease keeps a claimed timer from every other worker until it
 * ends. The claim commits at once because the move it leads to appends in a transaction of its
 * own that rewrites these rows. Late timers (after a restart) are simply due.
 */
export async function claimDueTimers(db: Database, options: ClaimOptions): Promise<TimerRow[]> {
  const { now, wallNow, leaseMs, reminderMinutes, limit } = options;
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('timers')
      .selectAll()
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', wallNow)]))
      .where(
        sql<boolean>`due_at <= ${now}::timestamptz + case when kind = 'reminder' then make_interval(mins => ${reminderMinutes}) else interval '0' end`,
      )
      .orderBy('due_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('timers')
      .set({ claimed_until: new Date(wallNow.getTime() + leaseMs) })
      .where((eb) => eb(eb.refTuple('booking_id', 'kind'), 'in', due.map((t) => eb.tuple(t.booking_id, t.kind))))
      .execute();
    return due;
  });
}
