import { sql } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import { createStateOfRow, createStateSql, type BookingCreateState, type CreateStateArgs, type CreateStateRow } from './booking-queries.js';

/** One create asked of the resource: its booker and times, from before to (a waiting entry's are: its join refused any other, as a create does). */
export type CreateAsk = { booker: string; from: Temporal.Instant; to: Temporal.Instant };

type CreateStatesArgs = { streamId: string; resourceId: string; bookers: string[]; froms: string[]; tos: string[] };

const h = holesOf() as Holes<CreateStatesArgs>;
const each: Holes<CreateStateArgs> = { streamId: h.streamId, resourceId: h.resourceId, booker: sql.ref('ask.booker'), from: sql.ref('ask.from_time'), to: sql.ref('ask.to_time') };

/** findBookingCreateState's own query joined laterally to each ask: its rows, in the asks' order. */
const createStates = compileOnce(sql`
  select state.* from unnest(${h.bookers}::text[], ${h.froms}::timestamptz[], ${h.tos}::timestamptz[]) with ordinality as ask (booker, from_time, to_time, n)
  cross join lateral (${createStateSql(each, false)}) as state
  order by ask.n`);

/**
 * What each of these creates on one resource decides on, as findBookingCreateState reads it for
 * that create alone, in one statement (one snapshot) whatever their number.
 */
export async function findBookingCreateStates(db: Executor, streamId: string, bookableResourceId: string, asks: readonly CreateAsk[]): Promise<BookingCreateState[]> {
  const args: CreateStatesArgs = {
    streamId,
    resourceId: bookableResourceId,
    bookers: asks.map((ask) => ask.booker),
    froms: asks.map((ask) => ask.from.toString()),
    tos: asks.map((ask) => ask.to.toString()),
  };
  const { rows } = await db.executeQuery<CreateStateRow>(createStates.fill(args));
  return rows.map(createStateOfRow);
}
