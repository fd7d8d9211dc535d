import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { forbidden, notFound } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import type { BookingCreated } from './booking-events.js';
import { bookerOf } from './booker.js';
import { assertBookingLimit, assertBookingPolicy } from './booking-policy.js';
import { assertValidTimes } from './booking-time.js';
import { assertNoConflicts, findConflicts } from './find-conflicts.js';
import { newBooking } from './new-booking.js';
import { buffersOf, occupiedRange } from './occupied-range.js';

export type CreateBooking = {
  id: string;
  title: string;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** Defaults to the token's email when booking for oneself. */
  bookerEmail?: string | null;
  /** LV1–LV3: book for this user (contract §17); defaults to the token's `sub`. */
  bookerProfileId?: string;
};

export type CreateBookingState = {
  /** The registered (live) resource asked for, null when there is none. */
  resource: Resource | null;
  /** Active bookings of the resource whose occupied ranges may overlap the new one's. */
  overlapping: readonly Booking[];
  /** Active bookings of the booker (the named one, else the actor) on the resource (a count capped at the policy's limit is enough). */
  activeBookingsOfBooker: number;
};

/** Order of refusals: 400 times → 403 level (and booking on behalf) → 404 resource → 422 policy → 409 conflict. */
export function decideCreateBooking(command: CreateBooking, state: CreateBookingState, actor: Principal, now: Temporal.Instant): BookingCreated {
  assertValidTimes(command.startTime, command.endTime, now);
  if (actor.level === 5) throw forbidden('guests (LV5) cannot create bookings');
  const booker = bookerOf(command, actor);
  const { resource } = state;
  if (!resource || resource.removed) throw notFound('resource');
  assertBookingPolicy(resource, command.startTime, command.endTime, now);
  assertBookingLimit(resource, state.activeBookingsOfBooker);
  assertNoConflicts(findConflicts(state.overlapping, occupiedRange(command.startTime, command.endTime, buffersOf(resource))));

  const booking = newBooking({
    id: command.id,
    resource,
    bookerProfileId: booker.profileId,
    bookerEmail: booker.email,
    createdBy: actor.sub,
    title: command.title,
    startTime: command.startTime,
    endTime: command.endTime,
    now,
  });
  return { type: 'BookingCreated', data: { booking, by: actor.sub, at: booking.createdAt } };
}
