import { sql, type Selectable } from 'kysely';
import type { Blackout } from '../../domain/blackout/blackout.js';
import type { HeldBooking } from '../../domain/booking/booking.js';
import type { Interval } from '../../domain/resource/availability.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import type { BlackoutsTable } from '../../infra/db/tables/blackouts.table.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { rowToBlackout } from '../blackout/blackout-queries.js';
import { rowToResource } from '../resource/resource-row.js';
import { bookingOccupiedRangeSql, newOccupiedRangeSql } from './occupied-range-sql.js';
import { heldBookingsByResource, type HeldBookingRow } from './held-booking-row.js';
import { occupyingBookingsSql } from './occupying-bookings-sql.js';

/** What freeBusy decides on for several resources over one range. */
export type FreeBusyInputs = {
  /** The live resources among those asked, by registration id. */
  resources: Map<string, Resource>;
  /** Per resource, the bookings occupying it (its own and those of the resources sharing one with it, contract §22) that reach the range with its buffers. */
  occupying: Map<string, HeldBooking[]>;
  /** The blackouts of those resources' workspaces overlapping the range. */
  blackouts: Blackout[];
};

type Args = { ids: string[]; from: string; to: string };

const h = holesOf() as Holes<Args>;

const liveResources = compileOnce(sql`select * from resources where id = any(${h.ids}::uuid[]) and deleted_at is null`);

/** The wall-clock text of a timestamptz as JavaScript writes an instant (UTC, milliseconds, Z): no Date is parsed for a row. */
const utcTextOf = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Each resource's occupying bookings whose occupied ranges meet the range widened by the buffers
 * a new booking takes there (what occupationMet reads): one GiST probe per resource and sharer, as
 * the free slots' statement (busy-times.ts) does for one.
 */
const occupyingBookings = compileOnce(sql`
  select r.id as resource_id, b.id, b.status, b.is_series_parent, b.units, b.buffer_before_minutes, b.buffer_after_minutes,
    ${utcTextOf('b.start_time')} as start_time, ${utcTextOf('b.end_time')} as end_time
  from resources r
  cross join lateral (${occupyingBookingsSql(sql`r.id`, sql`${bookingOccupiedRangeSql()} && ${newOccupiedRangeSql(h.from, h.to, 'r')}`)}) as b
  where r.id = any(${h.ids}::uuid[]) and r.deleted_at is null`);

const blackoutsOfWorkspaces = compileOnce(sql`
  select * from blackouts
  where workspace in (select workspace from resources where id = any(${h.ids}::uuid[]))
    and tstzrange(from_time, to_time, '[)') && tstzrange(${h.from}::timestamptz, ${h.to}::timestamptz, '[)')`);

type OccupyingRow = HeldBookingRow & { resource_id: string };

/**
 * Everything free/busy of these resources (registration ids, uuids) over `range` needs, in three
 * statements whatever their number: the live resources, the bookings occupying each near the
 * range, and their workspaces' blackouts in it.
 */
export async function findFreeBusyInputs(db: Executor, ids: readonly string[], range: Interval): Promise<FreeBusyInputs> {
  const args: Args = { ids: [...new Set(ids.map((id) => id.toLowerCase()))], from: range.start.toString(), to: range.end.toString() };
  if (args.ids.length === 0) return { resources: new Map(), occupying: new Map(), blackouts: [] };
  const [resources, bookings, blackouts] = await Promise.all([
    db.executeQuery<ResourceRow>(liveResources.fill(args)),
    db.executeQuery<OccupyingRow>(occupyingBookings.fill(args)),
    db.executeQuery<Selectable<BlackoutsTable>>(blackoutsOfWorkspaces.fill(args)),
  ]);
  return {
    resources: new Map(resources.rows.map((row) => [row.id, rowToResource(row)])),
    occupying: heldBookingsByResource(bookings.rows, (row) => row.resource_id),
    blackouts: blackouts.rows.map(rowToBlackout),
  };
}
