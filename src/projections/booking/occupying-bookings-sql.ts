import { sql, type RawBuilder } from 'kysely';

/**
 * The active bookings (series parents aside) that occupy the resource `resourceId`, rows of
 * `bookings` named `b` and filtered by `where` (on unqualified columns): its own and those of the
 * resources that share one with it (contract §22: its parts, the wholes holding it or one of its
 * parts; migration 0033's sharing_resources). One index probe per resource, on the GiST index of
 * the active bookings' occupied ranges: a resource without parts or wholes costs one, as before.
 *
 * `offset 0` keeps the bookings' subquery a subquery of its own, probed once per resource id:
 * flattened into a join, a generic plan without statistics (an estimate of one booking) read every
 * resource's bookings in the range through the index on the range alone and matched the resource in
 * a join filter: a create's state read the bookings of every resource at its time.
 */
export const occupyingBookingsSql = (resourceId: unknown, where: RawBuilder<unknown>): RawBuilder<unknown> => sql`
  select b.* from unnest(array[${resourceId}::uuid] || sharing_resources(${resourceId}::uuid)) as occupied (resource_id)
  cross join lateral (
    select * from bookings
    where bookable_resource_id = occupied.resource_id and booking_is_active(status, is_series_parent) and ${where}
    offset 0) as b`;
