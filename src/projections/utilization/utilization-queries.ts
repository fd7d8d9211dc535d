import { sql } from 'kysely';
import type { BookingFigures } from '../../domain/analytics/utilization-row.js';
import type { Availability } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';

/** The figures of one resource in one period (1-based index into the boundaries' periods). */
export type PeriodFigures = BookingFigures & { resourceId: string; period: number };

/**
 * Sums the bookings of the resources per period, reading only those overlapping the range (the
 * GiST index on resource and time range). `boundaries` are the periods' starts and the last end in
 * epoch ms, ascending; a booking falls into the periods between the buckets of its clipped start
 * and end, found by width_bucket, so each row is cut only at the boundaries it crosses. Minutes are
 * held by confirmed, completed and no-show bookings; the counts take the bookings starting in the period.
 */
export async function sumBookingsPerPeriod(db: Executor, resourceIds: readonly string[], boundaries: readonly number[]): Promise<PeriodFigures[]> {
  if (resourceIds.length === 0 || boundaries.length < 2) return [];
  const bounds = boundaries.map((ms) => new Date(ms).toISOString());
  const from = bounds[0]!;
  const to = bounds.at(-1)!;
  const { rows } = await sql<{
    resource_id: string;
    period: number;
    booked_ms: string | number;
    bookings: string | number;
    cancelled: string | number;
    no_shows: string | number;
    completed: string | number;
    checked_in: string | number;
  }>`
    with bounds as (select ${bounds}::timestamptz[] as b),
    hit as (
      select u.*,
             width_bucket(greatest(u.start_time, ${from}::timestamptz), bounds.b) as first_period,
             width_bucket(least(u.end_time, ${to}::timestamptz) - interval '1 microsecond', bounds.b) as last_period
      from utilization_bookings u, bounds
      where u.bookable_resource_id = any(${resourceIds}::uuid[])
        and tstzrange(u.start_time, u.end_time, '[)') && tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)')
    ),
    cut as (
      select hit.bookable_resource_id, p.period, hit.status, hit.checked_in,
             greatest(hit.start_time, bounds.b[p.period]) as held_from,
             least(hit.end_time, bounds.b[p.period + 1]) as held_to,
             hit.start_time >= bounds.b[p.period] and hit.start_time < bounds.b[p.period + 1] as starts_here
      from hit, bounds, generate_series(hit.first_period, hit.last_period) as p(period)
    )
    select bookable_resource_id as resource_id, period,
           coalesce(sum(extract(epoch from held_to - held_from) * 1000) filter (where status in ('confirmed', 'completed', 'no_show')), 0) as booked_ms,
           count(*) filter (where starts_here) as bookings,
           count(*) filter (where starts_here and status = 'cancelled') as cancelled,
           count(*) filter (where starts_here and status = 'no_show') as no_shows,
           count(*) filter (where starts_here and status = 'completed') as completed,
           count(*) filter (where starts_here and checked_in) as checked_in
    from cut
    group by bookable_resource_id, period`.execute(db);
  return rows.map((r) => ({
    resourceId: r.resource_id,
    period: Number(r.period),
    bookedMinutes: Number(r.booked_ms) / 60_000,
    bookings: Number(r.bookings),
    cancelled: Number(r.cancelled),
    noShows: Number(r.no_shows),
    completed: Number(r.completed),
    checkedIn: Number(r.checked_in),
  }));
}

/** A resource as utilization needs it: who may see it, and its operating hours. */
export type AnalysedResource = { id: string; workspace: string; groupId: string | null; availability: Availability | null };

const analysedColumns = ['id', 'workspace', 'group_id', 'availability'] as const;
const toAnalysed = (row: { id: string; workspace: string; group_id: string | null; availability: Availability | null }): AnalysedResource => ({
  id: row.id,
  workspace: row.workspace,
  groupId: row.group_id,
  availability: row.availability,
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
