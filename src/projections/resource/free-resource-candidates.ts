import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { HeldBooking } from '../../domain/booking/booking.js';
import type { FreeResourceCandidate } from '../../domain/search/free-resource-candidate.js';
import type { Resource } from '../../domain/resource/resource.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { heldBookingsByResource, type HeldBookingRow } from '../booking/held-booking-row.js';
import { bookingOccupiedRangeSql } from '../booking/occupied-range-sql.js';
import { filterArgs, matchingResourcesSql, type FilterArgs, type FreeResourceFilter } from './matching-resources-sql.js';
import { rowToResource } from './resource-row.js';

export type Window = { start: Temporal.Instant; end: Temporal.Instant };

type HeldRow = HeldBookingRow & { bookable_resource_id: string };

type ResourceTextRow = Omit<ResourceRow, 'booking_policy' | 'availability' | 'created_at' | 'updated_at'> & {
  booking_policy: string;
  availability: string | null;
  created_at: string;
  updated_at: string;
  policy_key: string;
};

type MatchRow = { id: string; stream_revision: string; policy_key: string; active_of_booker: string };

/** The wall-clock text of a timestamptz as JavaScript writes an instant (UTC, milliseconds, Z): no Date is parsed for a row. */
const utcTextOf = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Equal for resources whose isActive, bookingPolicy and availability are equal (a stored column, migration 0034). */
export const policyKeyOf = sql.raw('r.policy_key');

/** JSON text parsed once per distinct text: thousands of resources share a few policies. */
function parsedOnce<T>(): (text: string) => T {
  const parsed = new Map<string, T>();
  return (text) => {
    let value = parsed.get(text);
    if (value === undefined) parsed.set(text, (value = JSON.parse(text) as T));
    return value;
  };
}

export type ResourceAtRevision = { revision: string; resource: Resource; policyKey: string };

/**
 * Resources by id as of a stream revision, in this process: a resource's row changes only with an
 * event of its own stream, which moves its revision, so a remembered one at the same revision is
 * the row. Saves a search the reading of thousands of rows it read a moment ago.
 */
const resourcesAtRevision = boundedCache<string, ResourceAtRevision>('resources-at-revision', { maxEntries: 50_000 });

/** The rows of these resources as they are now, kept for their revisions. */
async function readResources(db: Executor, ids: readonly string[]): Promise<Map<string, ResourceAtRevision>> {
  const read = new Map<string, ResourceAtRevision>();
  if (ids.length === 0) return read;
  const { rows } = await sql<ResourceTextRow>`
    select r.id, r.workspace, r.resource_type, r.resource_id, r.resource_name, r.capacity, r.units, r.parts, r.group_id, r.is_active, r.deleted_at, r.stream_revision,
      r.booking_policy::text as booking_policy, r.availability::text as availability,
      ${utcTextOf('r.created_at')} as created_at, ${utcTextOf('r.updated_at')} as updated_at, ${policyKeyOf} as policy_key
    from resources r where r.id = any(${[...ids]}::uuid[])`.execute(db);
  const policyOf = parsedOnce<ResourceRow['booking_policy']>();
  const availabilityOf = parsedOnce<NonNullable<ResourceRow['availability']>>();
  for (const { policy_key: policyKey, ...row } of rows) {
    const resource = rowToResource({
      ...row,
      booking_policy: policyOf(row.booking_policy),
      availability: row.availability === null ? null : availabilityOf(row.availability),
      created_at: new Date(row.created_at),
      updated_at: new Date(row.updated_at),
    });
    const atRevision = { revision: String(row.stream_revision), resource, policyKey };
    resourcesAtRevision.set(row.id, atRevision);
    read.set(row.id, atRevision);
  }
  return read;
}

/**
 * The resources of these rows at their revisions: remembered ones at the same revision as they
 * are, the others read. A row changed again since is read as it is now (its policy key with it).
 */
export async function resourcesAt(db: Executor, rows: readonly { id: string; stream_revision: string | number }[]): Promise<Map<string, ResourceAtRevision>> {
  const kept = rows.map((row) => resourcesAtRevision.get(row.id, (known) => known.revision === String(row.stream_revision)));
  const read = await readResources(db, rows.filter((_, i) => kept[i] === undefined).map((row) => row.id));
  for (const [i, row] of rows.entries()) {
    const known = kept[i];
    if (known) read.set(row.id, known);
  }
  return read;
}

const m = holesOf() as Holes<FilterArgs & { booker: string }>;
const matchingOfM = matchingResourcesSql(m);

/** findMatchingResources' statement, compiled once. */
const matchingResources = compileOnce(sql`
  with recursive ${matchingOfM.subtree}
  select r.id, r.stream_revision, ${policyKeyOf} as policy_key,
    case when r.booking_policy->'maxBookingsPerUser' is null or jsonb_typeof(r.booking_policy->'maxBookingsPerUser') = 'null' then 0
      else (select count(*) from (
        select 1 from bookings b
        where b.booker_profile_id = ${m.booker} and b.bookable_resource_id = r.id
          and booking_is_active(b.status, b.is_series_parent)
        limit (r.booking_policy->>'maxBookingsPerUser')::int) held)
    end as active_of_booker
  from resources r
  where ${matchingOfM.where}`);

/**
 * The live resources matching the filters, each with the key of its policy verdicts and the
 * booker's active bookings on it (counted up to its maxBookingsPerUser, 0 without one). The
 * matching statement reads ids and revisions; the rows themselves only where this process does
 * not hold that revision.
 */
export async function findMatchingResources(db: Executor, filter: FreeResourceFilter, booker: string): Promise<Omit<FreeResourceCandidate, 'bookings'>[]> {
  const { rows } = await db.executeQuery<MatchRow>(matchingResources.fill({ ...filterArgs(filter), booker }));
  const known = await resourcesAt(db, rows);
  return rows.flatMap((row) => {
    const atRevision = known.get(row.id);
    return atRevision ? [{ resource: atRevision.resource, policyKey: atRevision.policyKey, activeBookingsOfBooker: Number(row.active_of_booker) }] : [];
  });
}

const z = holesOf() as Holes<FilterArgs>;
const matchingOfZ = matchingResourcesSql(z);

/** findMatchingIds' statement, compiled once. */
const matchingIds = compileOnce(sql`with recursive ${matchingOfZ.subtree} select r.id from resources r where ${matchingOfZ.where}`);

/** The ids of the live resources matching the filters: a zone's through the database's zone tree and the ancestors remembered at registration. */
export async function findMatchingIds(db: Executor, filter: FreeResourceFilter): Promise<Set<string>> {
  const { rows } = await db.executeQuery<{ id: string }>(matchingIds.fill(filterArgs(filter)));
  return new Set(rows.map((row) => row.id));
}

/** findActiveBookingsOfBooker's statement, compiled once: the partial index of the active bookings by booker answers it. */
const activeOfBooker = compileOnce(sql`
  select b.bookable_resource_id as resource, count(*)::int as active from bookings b
  where b.booker_profile_id = ${holesOf().booker} and booking_is_active(b.status, b.is_series_parent)
  group by b.bookable_resource_id`);

/** The booker's active bookings (series parents aside) by resource: what maxBookingsPerUser counts. */
export async function findActiveBookingsOfBooker(db: Executor, booker: string): Promise<Map<string, number>> {
  const { rows } = await db.executeQuery<{ resource: string; active: number }>(activeOfBooker.fill({ booker }));
  return new Map(rows.map((row) => [row.resource, row.active]));
}

const h = holesOf() as Holes<{ workspace: string; starts: string[]; ends: string[]; resourceIds: readonly string[] | null }>;

/**
 * findHeldInWindows' statement, compiled once. The windows merged into one multirange by an
 * uncorrelated subquery: the index condition is then the workspace and the range together
 * whatever the planner knows of the rows (a join to the unnested windows was planned, without
 * statistics, as a scan of the workspace's bookings).
 */
const heldInWindows = compileOnce(sql`
  select b.id, b.bookable_resource_id, b.status, b.is_series_parent, b.buffer_before_minutes, b.buffer_after_minutes, b.units,
    ${utcTextOf('b.start_time')} as start_time, ${utcTextOf('b.end_time')} as end_time
  from bookings b
  where b.workspace = ${h.workspace}::uuid
    and booking_is_active(b.status, b.is_series_parent)
    and ${bookingOccupiedRangeSql('b')} && (
      select range_agg(tstzrange(w.s, w.e, '[)'))
      from unnest(${h.starts}::timestamptz[], ${h.ends}::timestamptz[]) as w (s, e))
    and (${h.resourceIds}::uuid[] is null or b.bookable_resource_id = any(${h.resourceIds}::uuid[]))`);

/**
 * The active bookings (series parents aside) of the workspace whose occupied ranges (buffers
 * included) share time with any of the windows, by resource: the GiST index over the workspace's
 * occupied ranges answers the windows merged into one multirange, so the cost follows the bookings
 * in the windows, not the history, with or without statistics. A caller widens the windows by the
 * buffers a new booking would take.
 */
export async function findHeldInWindows(db: Executor, workspace: string, windows: readonly Window[], resourceIds?: readonly string[]): Promise<Map<string, HeldBooking[]>> {
  if (windows.length === 0) return new Map();
  const { rows } = await db.executeQuery<HeldRow>(
    heldInWindows.fill({ workspace, starts: windows.map((w) => w.start.toString()), ends: windows.map((w) => w.end.toString()), resourceIds: resourceIds ?? null }),
  );
  return heldBookingsByResource(rows, (row) => row.bookable_resource_id);
}

/** findWholes' statement, compiled once; its predicate is the index's (migration 0036). */
const wholes = compileOnce(sql`
  select id, parts from resources where workspace = ${holesOf().workspace}::uuid and parts is not null and deleted_at is null`);

/** The live wholes of a workspace with their parts (contract §22): whom each resource shares its bookings with. */
export async function findWholes(db: Executor, workspace: string): Promise<{ id: string; parts: string[] }[]> {
  const { rows } = await db.executeQuery<{ id: string; parts: string[] }>(wholes.fill({ workspace }));
  return rows;
}
