import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { BusyTime } from '../../domain/booking/available-slots.js';
import type { Executor } from '../../infra/db/database.js';

/**
 * The times held by active bookings (series parents aside) of a resource overlapping [from, to), as
 * epoch milliseconds: all free slots need. The predicates are findActiveOverlapping's, so the
 * exclusion constraint's GiST index answers; no row is parsed into a Date and written back as text.
 */
export async function findBusyTimes(db: Executor, bookableResourceId: string, from: Temporal.Instant, to: Temporal.Instant): Promise<BusyTime[]> {
  if (from.epochMilliseconds >= to.epochMilliseconds) return [];
  const { rows } = await sql<BusyTime>`
    select floor(extract(epoch from start_time) * 1000)::float8 as "startMs", floor(extract(epoch from end_time) * 1000)::float8 as "endMs"
    from bookings
    where bookable_resource_id = ${bookableResourceId}
      and status in ('pending', 'confirmed') and not is_series_parent
      and tstzrange(start_time, end_time, '[)') && tstzrange(${from.toString()}::timestamptz, ${to.toString()}::timestamptz, '[)')`.execute(db);
  return rows;
}
