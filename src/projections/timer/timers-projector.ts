import { sql, type Transaction } from 'kysely';
import { storedBookingEventTypes } from '../../domain/booking/booking-archived.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import { defaultBookingPolicy } from '../../domain/resource/resource.js';
import type { ResourceUpdated } from '../../domain/resource/resource-events.js';
import type { DB } from '../../infra/db/schema.js';
import type { TimerKind } from '../../infra/db/tables/timers.table.js';
import { bind, executeAll, sqlTemplate, type BoundSql } from '../../infra/db/sql-template.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';
import { bookingTimers, timerKinds } from './booking-timers.js';

/** The kinds an event plans anew; the timers of other kinds stay as they are. */
function replannedKinds(event: BookingEvent): readonly TimerKind[] {
  switch (event.type) {
    case 'BookingConfirmed':
      // The reminder planned at creation still stands, or has been sent already.
      return timerKinds.filter((kind) => kind !== 'reminder');
    case 'BookingRescheduled':
      // Same start: the reminder, sent or not, still fits; a new start needs a new one.
      return event.data.previousStartTime === event.data.booking.startTime ? timerKinds.filter((kind) => kind !== 'reminder') : timerKinds;
    case 'BookingReminderIssued':
      return ['reminder'];
    case 'BookingCreated':
    case 'BookingCancelled':
    case 'BookingCheckedIn':
    case 'BookingCheckedOut':
    case 'BookingCompleted':
    case 'BookingMarkedNoShow':
      return timerKinds;
    default:
      return event satisfies never;
  }
}

type Replan = { bookingId: string; resourceId: string; kinds: readonly TimerKind[]; kept: TimerKind[]; dueAts: string[]; plusGrace: boolean[] };

/**
 * Drops the replanned kinds the booking no longer needs and upserts the ones it does, in one
 * round trip: the grace period is read from the resource inside it. An unchanged timer keeps its
 * claim, since a worker may be firing it right now.
 */
const replan = sqlTemplate<Replan>((p) => [
  sql`delete from timers
    where booking_id = ${p.bookingId} and kind = any(${p.kinds}::text[]) and not (kind = any(${p.kept}::text[]))`,
  sql`insert into timers (booking_id, kind, due_at, claimed_until)
    select ${p.bookingId}, planned.kind,
           case when planned.plus_grace
             then planned.due_at + make_interval(mins => coalesce(
               (select (booking_policy ->> 'gracePeriodMinutes')::int from resources where id = ${p.resourceId}),
               ${defaultBookingPolicy.gracePeriodMinutes}))
             else planned.due_at end,
           null
    from unnest(${p.kept}::text[], ${p.dueAts}::timestamptz[], ${p.plusGrace}::boolean[]) as planned(kind, due_at, plus_grace)
    on conflict (booking_id, kind) do update set due_at = excluded.due_at, claimed_until = null
    where timers.due_at <> excluded.due_at`,
]);

/** The replanning of a booking event (BookingArchived aside). */
function replanOf(recorded: EventOf): BoundSql[] {
  const event = { type: recorded.type, data: recorded.data } as BookingEvent;
  const { booking } = event.data;
  const kinds = replannedKinds(event);
  // A reminder issued is done with: it is dropped, never planned again.
  const planned = event.type === 'BookingReminderIssued' ? [] : bookingTimers(booking).filter((t) => kinds.includes(t.kind));
  return [
    bind(replan, {
      bookingId: booking.id,
      resourceId: booking.bookableResourceId,
      kinds,
      kept: planned.map((t) => t.kind),
      dueAts: planned.map((t) => t.dueAt.toISOString()),
      plusGrace: planned.map((t) => t.plusGracePeriod === true),
    }),
  ];
}

/** A new grace period moves the no-show timers of the resource's bookings. */
async function moveNoShows(trx: Transaction<DB>, event: ResourceUpdated): Promise<void> {
  const grace = event.data.changes.bookingPolicy?.gracePeriodMinutes;
  if (grace === undefined) return;
  await trx
    .updateTable('timers')
    .from('bookings')
    .set({ due_at: sql`bookings.start_time + make_interval(mins => ${grace})`, claimed_until: null })
    .whereRef('timers.booking_id', '=', 'bookings.id')
    .where('timers.kind', '=', 'no_show')
    .where('bookings.bookable_resource_id', '=', event.data.id)
    .execute();
}

/** Keeps the durable timers in step with the bookings: plans, moves and drops them with each event. */
export const timersProjector: Projector = {
  name: 'timers',
  tables: ['timers'],
  handles: new Set([...storedBookingEventTypes, 'ResourceUpdated']),
  async apply(trx, recorded) {
    if (recorded.type === 'ResourceUpdated') {
      await moveNoShows(trx, { type: 'ResourceUpdated', data: recorded.data } as ResourceUpdated);
      return;
    }
    if (recorded.type === 'BookingArchived') {
      // An archived booking has ended for good: nothing is due for it any more.
      await trx.deleteFrom('timers').where('booking_id', '=', (recorded.data as { booking: { id: string } }).booking.id).execute();
      return;
    }
    await executeAll(trx, replanOf(recorded));
  },
  sqlOf: (event) => (event.type === 'ResourceUpdated' || event.type === 'BookingArchived' ? undefined : replanOf(event)),
};
