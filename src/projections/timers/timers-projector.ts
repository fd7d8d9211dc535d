import { sql, type Transaction } from 'kysely';
import { bookingEventTypes, type BookingEvent } from '../../domain/booking/booking-events.js';
import { defaultBookingPolicy } from '../../domain/resource/resource.js';
import type { ResourceUpdated } from '../../domain/resource/resource-events.js';
import type { DB } from '../../infra/db/schema.js';
import type { TimerKind } from '../../infra/db/tables/timers.table.js';
import type { Projector } from '../projector.js';
import { bookingTimers, timerKinds, type PlannedTimer } from './booking-timers.js';

async function gracePeriodOf(trx: Transaction<DB>, resourceId: string): Promise<number> {
  const row = await trx.selectFrom('resources').select('booking_policy').where('id', '=', resourceId).executeTakeFirst();
  return row?.booking_policy.gracePeriodMinutes ?? defaultBookingPolicy.gracePeriodMinutes;
}

/** The kinds an event plans anew; the timers of other kinds stay as they are. */
function replannedKinds(event: BookingEvent): readonly TimerKind[] {
  switch (event.type) {
    case 'BookingConfirmed':
      // The reminder planned at creation still stands, or has been sent already.
      return timerKinds.filter((kind) => kind !== 'reminder');
    case 'BookingRescheduled':
      // Same start: the reminder, sent or not, still fits; a new start needs a new one.
      return event.data.previousStartTime === event.data.booking.startTime ? timerKinds.filter((kind) => kind !== 'reminder') : timerKinds;
    default:
      return timerKinds;
  }
}

async function replan(trx: Transaction<DB>, bookingId: string, kinds: readonly TimerKind[], timers: PlannedTimer[]): Promise<void> {
  const kept = timers.map((t) => t.kind);
  await trx
    .deleteFrom('timers')
    .where('booking_id', '=', bookingId)
    .where('kind', 'in', kinds)
    .$if(kept.length > 0, (q) => q.where('kind', 'not in', kept))
    .execute();
  if (timers.length === 0) return;
  await trx
    .insertInto('timers')
    .values(timers.map((t) => ({ booking_id: bookingId, kind: t.kind, due_at: t.dueAt, claimed_until: null })))
    .onConflict((oc) =>
      oc
        .columns(['booking_id', 'kind'])
        .doUpdateSet({ due_at: (eb) => eb.ref('excluded.due_at'), claimed_until: null })
        // An unchanged timer keeps its claim: a worker may be firing it right now.
        .where('timers.due_at', '<>', (eb) => eb.ref('excluded.due_at')),
    )
    .execute();
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
  handles: new Set([...bookingEventTypes, 'ResourceUpdated']),
  async apply(trx, recorded) {
    if (recorded.type === 'ResourceUpdated') {
      await moveNoShows(trx, { type: 'ResourceUpdated', data: recorded.data } as ResourceUpdated);
      return;
    }
    const event = { type: recorded.type, data: recorded.data } as BookingEvent;
    const { booking } = event.data;
    if (event.type === 'BookingReminderIssued') {
      await replan(trx, booking.id, ['reminder'], []);
      return;
    }
    const kinds = replannedKinds(event);
    const needed = bookingTimers(booking, await gracePeriodOf(trx, booking.bookableResourceId));
    await replan(trx, booking.id, kinds, needed.filter((t) => kinds.includes(t.kind)));
  },
};
