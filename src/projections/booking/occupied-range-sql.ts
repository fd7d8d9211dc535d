import { sql, type RawBuilder } from 'kysely';

/**
 * The occupied range in SQL: the function `booking_occupied_range` (migration 0018), the twin of
 * the domain's `occupiedMs` (a test holds the two together). A row's range is written exactly as
 * the exclusion constraint and the GiST indexes write it, so they answer.
 */
export const bookingOccupiedRangeSql = (alias?: string): RawBuilder<unknown> => {
  const column = (name: string) => (alias ? sql.ref(`${alias}.${name}`) : sql.ref(name));
  return sql`booking_occupied_range(${column('start_time')}, ${column('end_time')}, ${column('buffer_before_minutes')}, ${column('buffer_after_minutes')})`;
};

/** A buffer of a resource row's policy in force (none in a policy stored before buffers existed). */
const policyBufferSql = (resourceAlias: string, field: 'bufferBeforeMinutes' | 'bufferAfterMinutes') =>
  sql`coalesce((${sql.ref(`${resourceAlias}.booking_policy`)}->>${sql.lit(field)})::integer, 0)`;

/** The range a new booking of [from, to) would occupy on the resource row `resourceAlias`. */
export const newOccupiedRangeSql = (from: unknown, to: unknown, resourceAlias: string): RawBuilder<unknown> =>
  sql`booking_occupied_range(${from}::timestamptz, ${to}::timestamptz, ${policyBufferSql(resourceAlias, 'bufferBeforeMinutes')}, ${policyBufferSql(resourceAlias, 'bufferAfterMinutes')})`;
