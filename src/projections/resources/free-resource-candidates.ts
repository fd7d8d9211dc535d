import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Booking } from '../../domain/booking/booking.js';
import type { FreeResourceCandidate } from '../../domain/search/free-resource-candidate.js';
import type { ResourceType } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import type { BookingRow } from '../../infra/db/tables/bookings.table.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { rowToBooking } from '../bookings/booking-row.js';
import { rowToResource } from './resource-row.js';

export type FreeResourceFilter = {
  workspace: string;
  resourceType?: ResourceType;
  minCapacity?: number;
  /** Zone resources of this zone or of a zone under it (the service's own zone tree, followed at query time). */
  zoneId?: string;
  groupId?: string;
};

export type Window = { start: Temporal.Instant; end: Temporal.Instant };

type CandidateRow = ResourceRow & { policy_key: string; active_of_booker: string };

/**
 * The live resources matching the filters, each with the key of its policy verdicts and the
 * booker's active bookings on it (counted up to its maxBookingsPerUser, 0 without one). The zone
 * filter walks the service's own zone tree down from the zone, so a zone moved under another
 * parent moves its resources at once; a remote device service's zones match by the ancestors
 * remembered at registration and refreshed by each reconciliation.
 */
export async function findMatchingResources(db: Executor, filter: FreeResourceFilter, booker: string): Promise<Omit<FreeResourceCandidate, 'bookings'>[]> {
  const zone = filter.zoneId ?? null;
  const { rows } = await sql<CandidateRow>`
    with recursive subtree (id, depth) as (
      select ${zone}::text, 0 where ${zone}::text is not null
      union all
      select z.id, s.depth + 1 from zones z join subtree s on z.workspace = ${filter.workspace}::uuid and z.parent_zone_id = s.id
      where s.depth < 1000
    )
    select r.*,
      concat_ws('|', r.is_active, r.booking_policy::text, r.availability::text) as policy_key,
      case when r.booking_policy->'maxBookingsPerUser' is null or jsonb_typeof(r.booking_policy->'maxBookingsPerUser') = 'null' then 0
        else (select count(*) from (
          select 1 from bookings b
          where b.booker_profile_id = ${booker} and b.bookable_resource_id = r.id
            and b.status in ('pending', 'confirmed') and not b.is_series_parent
          limit (r.booking_policy->>'maxBookingsPerUser')::int) held)
      end as active_of_booker
    from resources r
    where r.workspace = ${filter.workspace}::uuid and r.deleted_at is null
      and (${filter.resourceType ?? null}::text is null or r.resource_type = ${filter.resourceType ?? null}::text)
      and (${filter.minCapacity ?? null}::int is null or r.capacity >= ${filter.minCapacity ?? null}::int)
      and (${filter.groupId ?? null}::text is null or r.group_id = ${filter.groupId ?? null}::text)
      and (${zone}::text is null or (r.resource_type = 'zone' and (r.resource_id in (select id from subtree) or exists (
        select 1 from zone_ancestry za where za.workspace = r.workspace and za.zone_id = r.resource_id and za.ancestors @> array[${zone}::text]))))`.execute(db);
  return rows.map((row) => ({ resource: rowToResource(row), policyKey: row.policy_key, activeBookingsOfBooker: Number(row.active_of_booker) }));
}

/**
 * The active bookings (series parents aside) of the workspace whose occupied ranges (buffers
 * included) share time with any of the windows, by resource: the GiST index over the workspace's
 * occupied ranges answers each window, so the cost follows the bookings in the windows, not the
 * history. A caller widens the windows by the buffers a new booking would take.
 */
export async function findHeldInWindows(db: Executor, workspace: string, windows: readonly Window[], resourceIds?: readonly string[]): Promise<Map<string, Booking[]>> {
  const byResource = new Map<string, Booking[]>();
  if (windows.length === 0) return byResource;
  const { rows } = await sql<BookingRow>`
    select distinct on (b.id) b.*
    from unnest(${windows.map((w) => w.start.toString())}::timestamptz[], ${windows.map((w) => w.end.toString())}::timestamptz[]) as w (s, e)
    join bookings b on b.workspace = ${workspace}::uuid
      and b.status in ('pending', 'confirmed') and not b.is_series_parent
      and booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes) && tstzrange(w.s, w.e, '[)')
    where ${resourceIds ?? null}::uuid[] is null or b.bookable_resource_id = any(${resourceIds ?? null}::uuid[])`.execute(db);
  for (const row of rows) {
    const booking = rowToBooking(row);
    const held = byResource.get(booking.bookableResourceId);
    if (held) held.push(booking);
    else byResource.set(booking.bookableResourceId, [booking]);
  }
  return byResource;
}
