import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import { createStateOfRow, createStateSql, type BookingCreateState, type CreateStateArgs, type CreateStateRow } from './booking-queries.js';

/** One create asked of the resource: its booker and times, from before to (a waiting entry's are: its join refused any other, as a create does). */
export type CreateAsk = { booker: string; from: Temporal.Instant; to: Temporal.Instant };

/** One create asked of a resource named with its stream (a bundle's item). */
export type CreateAskOn = CreateAsk & { streamId: string; resourceId: string };

type CreateStatesArgs = { streamIds: string[]; resourceIds: string[]; bookers: string[]; froms: string[]; tos: string[] };

const h = holesOf() as Holes<CreateStatesArgs>;
const each: Holes<CreateStateArgs> = {
  streamId: sql.ref('ask.stream_id'),
  resourceId: sql.ref('ask.resource_id'),
  booker: sql.ref('ask.booker'),
  from: sql.ref('ask.from_time'),
  to: sql.ref('ask.to_time'),
};

/** findBookingCreateState's own query joined laterally to each ask: its rows, in the asks' order. */
const createStates = (rangeIsEmpty: boolean) =>
  compileOnce(sql`
  select state.* from unnest(${h.streamIds}::text[], ${h.resourceIds}::uuid[], ${h.bookers}::text[], ${h.froms}::timestamptz[], ${h.tos}::timestamptz[])
    with ordinality as ask (stream_id, resource_id, booker, from_time, to_time, n)
  cross join lateral (${createStateSql(each, rangeIsEmpty)}) as state
  order by ask.n`);

const statements = { overlapping: createStates(false), empty: createStates(true) };

/**
 * What each of these creates decides on, as findBookingCreateState reads it for that create alone
 * (its stream's revision included), in one statement (one snapshot) whatever their number. Asks
 * with an empty or inverted range are read as overlapping nothing, all of them when any is.
 */
export async function findBookingCreateStatesOn(db: Executor, asks: readonly CreateAskOn[]): Promise<BookingCreateState[]> {
  const args: CreateStatesArgs = {
    streamIds: asks.map((ask) => ask.streamId),
    resourceIds: asks.map((ask) => ask.resourceId),
    bookers: asks.map((ask) => ask.booker),
    froms: asks.map((ask) => ask.from.toString()),
    tos: asks.map((ask) => ask.to.toString()),
  };
  const empty = asks.some((ask) => ask.from.epochMilliseconds >= ask.to.epochMilliseconds);
  const { rows } = await db.executeQuery<CreateStateRow>((empty ? statements.empty : statements.overlapping).fill(args));
  return rows.map(createStateOfRow);
}

/** findBookingCreateStatesOn for creates on one resource. */
export function findBookingCreateStates(db: Executor, streamId: string, bookableResourceId: string, asks: readonly CreateAsk[]): Promise<BookingCreateState[]> {
  return findBookingCreateStatesOn(
    db,
    asks.map((ask) => ({ ...ask, streamId, resourceId: bookableResourceId })),
  );
}
