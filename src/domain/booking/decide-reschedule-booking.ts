import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Blackout } from '../blackout/blackout.js';
import { DomainError, invalidTransition } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import { sequenceOf } from './booking-sequence.js';
import type { BookingRescheduled } from './booking-events.js';
import { assertBookerOrAdmin, visibleBooking } from './booking-access.js';
import { instantOf, timesRefusal, utcText } from './booking-time.js';
import { callerRefusal, placementRefusal } from '../placement/placement-refusal.js';
import { pooledWhenPlaced } from './unit-use.js';
import { buffersOf } from './occupied-range.js';
import type { QuotaUsage } from '../quota/quota-usage.js';

export type RescheduleBooking = { startTime?: Temporal.Instant; endTime?: Temporal.Instant; title?: string; /** New units of the resource (contract §21). */ units?: number };

export type RescheduleBookingState = {
  booking: Booking | null;
  /** The booking's resource, removed ones included (null only if it never existed). */
  resource: Resource | null;
  /** Active bookings of the resource whose occupied ranges may overlap the new times' (with the resource's buffers). */
  overlapping: readonly Booking[];
  /** The workspace's quotas with the booker's usage in each one's period containing the new start, the booking itself left out. */
  quotas?: readonly QuotaUsage[];
  /** Blackouts of the workspace that may overlap the new times. */
  blackouts: readonly Blackout[];
};

/**
 * New times or units are a placement of the booking anew: the placement's verdict, without the
 * booking's own occupation, quota use or count (it adds no booking), a kept start not judged again.
 * A title-only change keeps status and times. Any change to an occurrence detaches it from its series.
 * A booking of a bundle moves only with its bundle (`inBundle`): alone → 409 bundle_member (contract §22).
 * A booking made by an organizer's calendar event moves only with that event (`calendar`, contract
 * §26): otherwise → 409 calendar_managed.
 */
export function decideRescheduleBooking(
  command: RescheduleBooking,
  state: RescheduleBookingState,
  actor: Principal,
  now: Temporal.Instant,
  { inBundle = false, calendar = false }: { inBundle?: boolean; calendar?: boolean } = {},
): BookingRescheduled[] {
  // §3's order: the request's own faults (400) and the caller's (403) before the booking (404, 409).
  const early = (command.startTime && command.endTime ? timesRefusal(command.startTime, command.endTime, now, false) : null) ?? callerRefusal({}, actor);
  if (early) throw early;
  const booking = visibleBooking(actor, state.booking);
  assertBookerOrAdmin(actor, booking);
  if (booking.bundleId && !inBundle) throw new DomainError('bundle_member', 'a booking of a bundle moves with its bundle: PATCH /bundles/{bundleId}');
  if (booking.calendarUid !== null && !calendar) {
    throw new DomainError('calendar_managed', "a booking made by a calendar invitation moves with its event: change the event in the organizer's calendar");
  }
  if (booking.isSeriesParent) throw invalidTransition('a series is changed through /bookings/series/{parentId}');
  if (booking.status !== 'pending' && booking.status !== 'confirmed') {
    throw invalidTransition(`Booking cannot be rescheduled in status ${booking.status}`);
  }
  if (booking.checkedInAt !== null) throw invalidTransition('Booking cannot be rescheduled after check-in');

  const previousStart = instantOf(booking.startTime);
  const previousEnd = instantOf(booking.endTime);
  const start = command.startTime ?? previousStart;
  const end = command.endTime ?? previousEnd;
  const startChanged = !start.equals(previousStart);
  const timesChanged = startChanged || !end.equals(previousEnd);
  const title = command.title ?? booking.title;
  const units = command.units ?? booking.units;
  const placed = timesChanged || units !== booking.units;
  if (!placed && title === booking.title) return [];

  let status = booking.status;
  let buffers = { bufferBeforeMinutes: booking.bufferBeforeMinutes, bufferAfterMinutes: booking.bufferAfterMinutes };
  let { pooled } = booking;
  if (placed) {
    const placement = { startTime: start, endTime: end, units, bookerProfileId: booking.bookerProfileId, bookerEmail: booking.bookerEmail };
    // The booking's own occupation is not in its way.
    const without = { ...state, overlapping: state.overlapping.filter((held) => held.id !== booking.id), activeBookingsOfBooker: 0, quotas: state.quotas ?? [] };
    const refusal = placementRefusal(placement, without, actor, now, { move: { startChanged } });
    if (refusal) throw refusal;
    const resource = state.resource!;
    // New times are a new decision: they take the buffers of the policy in force (contract §17).
    buffers = buffersOf(resource);
    pooled = pooledWhenPlaced(booking, resource);
    // New times or units need a new approval where the resource asks for approval.
    if (!resource.bookingPolicy.autoConfirm) status = 'pending';
  }

  const at = utcText(now);
  const returnsToPending = status === 'pending' && booking.status === 'confirmed';
  const next: Booking = {
    ...booking,
    title,
    startTime: utcText(start),
    endTime: utcText(end),
    ...buffers,
    units,
    pooled,
    status,
    confirmedBy: returnsToPending ? null : booking.confirmedBy,
    confirmedAt: returnsToPending ? null : booking.confirmedAt,
    recurrenceParentId: null,
    exceptionOf: booking.recurrenceParentId ?? booking.exceptionOf,
    updatedAt: at,
    sequence: sequenceOf(booking) + 1,
  };
  return [
    {
      type: 'BookingRescheduled',
      data: { booking: next, by: actor.sub, at, previousStartTime: booking.startTime, previousEndTime: booking.endTime, previousUnits: booking.units },
    },
  ];
}
