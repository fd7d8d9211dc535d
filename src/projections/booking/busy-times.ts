import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { BusyTime } from '../../domain/booking/available-slots.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import type { ResourceRow } from '../../infra/db/tables/resources.table.js';
import { rowToResource } from '../resource/resource-row.js';
import { followedWorkspace } from '../resource/followed-workspaces.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import { buffersOf, occupiedMs } from '../../domain/booking/occupied-range.js';
import { bookingOccupiedRangeSql, newOccupiedRangeSql } from './occupied-range-sql.js';
import { occupyingBookingsSql } from './occupying-bookings-sql.js';

type BusyTimesArgs = { id: string; from: string; to: string };

const p = holesOf() as Holes<BusyTimesArgs>;

const resourceWithBusyTimes = compileOnce(sql`
  select r.*, (
      select string_agg(
          floor(extract(epoch from lower(${bookingOccupiedRangeSql('b')})) * 1000)::bigint || ' ' ||
          floor(extract(epoch from upper(${bookingOccupiedRangeSql('b')})) * 1000)::bigint || ' ' || b.units, ',')
      from (${occupyingBookingsSql(sql`r.id`, sql`${bookingOccupiedRangeSql()} && ${newOccupiedRangeSql(p.from, p.to, 'r')}`)}) as b
    ) as busy
  from resources r
  where r.id = ${p.id} and r.deleted_at is null`);

/** The workspace of each resource asked for (a resource never changes workspace). */
const workspaces = boundedCache<string, string>('resource-workspaces', { maxEntries: 50_000 });
const workspaceOfResource = compileOnce(sql`select workspace from resources where id = ${holesOf().id}::uuid`);

/**
 * A live resource and the occupied ranges (buffers included) of its active bookings (series
 * parents aside, those of the resources sharing one with it included, contract §22) that overlap
 * [from, to) occupied with the resource's buffers, as epoch milliseconds: all free slots need.
 * From its workspace as this process follows it (followed-workspaces.ts: every write answered
 * before the call is in it), the rows changed since the last read read first; a range reaching
 * before what the followed workspace holds is read in one statement.
 */
export async function findResourceWithBusyTimes(db: Executor, asked: string, from: Temporal.Instant, to: Temporal.Instant): Promise<{ resource: Resource; busy: BusyTime[] } | null> {
  // A uuid in capitals names the same resource: the followed workspace knows it as PostgreSQL writes it.
  const id = asked.toLowerCase();
  let workspace = workspaces.get(id);
  if (workspace === undefined) {
    const { rows } = await db.executeQuery<{ workspace: string }>(workspaceOfResource.fill({ id }));
    if (!rows[0]) return null;
    workspaces.set(id, (workspace = rows[0].workspace));
  }
  const followed = await followedWorkspace(db, workspace);
  const keyed = followed.byId.get(id);
  if (!keyed) return null;
  const { resource } = keyed;
  const occupied = occupiedMs(from.epochMilliseconds, to.epochMilliseconds, buffersOf(resource));
  if (occupied.startMs < followed.heldFromMs) return readResourceWithBusyTimes(db, id, from, to);
  const occupying = new Set([id, ...(followed.sharing.get(id) ?? [])]);
  const held = followed.heldIn(occupied.startMs, occupied.endMs, occupying);
  return { resource, busy: [...held.values()].flat().map(({ startMs, endMs, units }) => ({ startMs, endMs, units })) };
}

/**
 * readResourceWithBusyTimes: findResourceWithBusyTimes in one statement. The predicates are findActiveOverlapping's,
 * so the exclusion constraint's GiST index answers; the times travel as one text
 * ("start end units,start end units"), no row is parsed into a Date and written back.
 */
async function readResourceWithBusyTimes(db: Executor, id: string, from: Temporal.Instant, to: Temporal.Instant): Promise<{ resource: Resource; busy: BusyTime[] } | null> {
  const { rows } = await db.executeQuery<ResourceRow & { busy: string | null }>(resourceWithBusyTimes.fill({ id, from: from.toString(), to: to.toString() }));
  const row = rows[0];
  if (!row) return null;
  const { busy, ...resource } = row;
  const times = (busy?.split(',') ?? []).map((pair) => {
    const [startMs, endMs, units] = pair.split(' ');
    return { startMs: Number(startMs), endMs: Number(endMs), units: Number(units) };
  });
  return { resource: rowToResource(resource), busy: times };
}
