import { sql } from 'kysely';
import type { AnalysedBooking } from '../../domain/analytics/figures-per-period.js';
import type { BookingStatus } from '../../domain/booking/booking.js';
import type { Availability } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';

/**
 * The bookings of one resource as the query below writes them: "start end status units 0|1", comma
 * separated. Scanned by offsets rather than split in two levels: at 17,000 bookings an answer,
 * the intermediate arrays and strings of split cost more than the figures themselves.
 */
function parseBookings(text: string): AnalysedBooking[] {
  const bookings: AnalysedBooking[] = [];
  for (let at = 0; at < text.length; ) {
    const afterStart = text.indexOf(' ', at);
    const afterEnd = text.indexOf(' ', afterStart + 1);
    const afterStatus = text.indexOf(' ', afterEnd + 1);
    const afterUnits = text.indexOf(' ', afterStatus + 1);
    bookings.push({
      startUs: Number(text.slice(at, afterStart)),
      endUs: Number(text.slice(afterStart + 1, afterEnd)),
      status: text.slice(afterEnd + 1, afterStatus) as BookingStatus,
      units: Number(text.slice(afterStatus + 1, afterUnits)),
      checkedIn: text.charCodeAt(afterUnits + 1) === 49,
    });
    at = afterUnits + 3;
  }
  return bookings;
}

/**
 * The bookings of the resources overlapping [fromMs, toMs) (the GiST index on resource and time
 * range), by resource: times in epoch microseconds (kept so by the projector), status, units, checked in. One row per resource, its
 * bookings as one text ("start end status units 0|1", comma-separated): the driver builds 200 strings
 * instead of 17,000 row objects, and the figures are summed in Node (figuresPerPeriod).
 */
export async function findAnalysedBookings(db: Executor, resourceIds: readonly string[], fromMs: number, toMs: number): Promise<Map<string, AnalysedBooking[]>> {
  const byResource = new Map<string, AnalysedBooking[]>();
  if (resourceIds.length === 0 || fromMs >= toMs) return byResource;
  const { rows } = await sql<{ resource_id: string; bookings: string }>`
    select bookable_resource_id::text as resource_id,
           string_agg(concat_ws(' ', start_us, end_us, status, units, checked_in::int), ',') as bookings
    from utilization_bookings
    where bookable_resource_id = any(${resourceIds}::uuid[])
      and tstzrange(start_time, end_time, '[)') && tstzrange(${new Date(fromMs).toISOString()}::timestamptz, ${new Date(toMs).toISOString()}::timestamptz, '[)')
    group by bookable_resource_id`.execute(db);
  for (const row of rows) byResource.set(row.resource_id, parseBookings(row.bookings));
  return byResource;
}

/** A resource as utilization needs it: who may see it, and its operating hours. */
export type AnalysedResource = { id: string; workspace: string; groupId: string | null; availability: Availability | null; units: number };

const analysedColumns = ['id', 'workspace', 'group_id', 'availability', 'units'] as const;
const toAnalysed = (row: { id: string; workspace: string; group_id: string | null; availability: Availability | null; units: number }): AnalysedResource => ({
  id: row.id,
  workspace: row.workspace,
  groupId: row.group_id,
  availability: row.availability,
  units: row.units,
});

/** The live resources with these ids (any workspace: the caller's rights are checked on them). */
export async function findAnalysedResources(db: Executor, ids: readonly string[]): Promise<AnalysedResource[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('resources').select(analysedColumns).where('id', 'in', [...ids]).where('deleted_at', 'is', null).execute();
  return rows.map(toAnalysed);
}

/** Every live resource of a workspace (all workspaces when null), only those of `groups` when given, by id. */
export async function listAnalysedResources(db: Executor, scope: { workspace: string | null; groups: readonly string[] | null }): Promise<AnalysedResource[]> {
  const rows = await db
    .selectFrom('resources')
    .select(analysedColumns)
    .where('deleted_at', 'is', null)
    .$if(scope.workspace !== null, (q) => q.where('workspace', '=', scope.workspace!))
    .$if(scope.groups !== null, (q) => (scope.groups!.length === 0 ? q.where(sql<boolean>`false`) : q.where('group_id', 'in', [...scope.groups!])))
    .orderBy('id')
    .execute();
  return rows.map(toAnalysed);
}
