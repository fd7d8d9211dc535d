import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Blackout } from '../blackout/blackout.js';
import { forbidden, notFound } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import type { Booking } from './booking.js';
import type { BookingCreated } from './booking-events.js';
import { assertNoBlackout } from './blackout-refusal.js';
import { assertBookingLimit, assertBookingPolicy } from './booking-policy.js';
import { assertValidTimes } from './booking-time.js';
import { assertNoConflicts, findConflicts } from './find-conflicts.js';
import { newBooking } from './new-booking.js';

export type CreateBooking = {
  id: string;
  title: string;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** Defaults to the token's email. */
  bookerEmail?: string | null;
};

export type CreateBookingState = {
  /** The registered (live) resource asked for, null when there is none. */
  resource: Resource | null;
  /** Active bookings of the resource that may overlap the new one. */
  overlapping: readonly Booking[];
  /** Active bookings of the booker on the resource (a count capped at the policy's limit is enough). */
  activeBookingsOfBooker: number;
  /** Blackouts of the workspace that may overlap the booking (any resource; the decision picks). */
  blackouts: readonly Blackout[];
};

/** Order of refusals: 400 times → 403 level → 404 resource → 422 policy → 409 conflict. */
export function decideCreateBooking(command: CreateBooking, state: CreateBookingState, actor: Principal, now: Temporal.Instant): BookingCreated {
  assertValidTimes(command.startTime, command.endTime, now);
  if (actor.level === 5) throw forbidden('guests (LV5) cannot create bookings');
  const { resource } = state;
  if (!resource || resource.removed) throw notFound('resource');
  assertBookingPolicy(resource, command.startTime, command.endTime, now);
  assertBookingLimit(resource, state.activeBookingsOfBooker);
  assertNoBlackout(state.blackouts, resource.id, command.startTime, command.endTime);
  assertNoConflicts(findConflicts(state.overlapping, command.startTime, command.endTime));

  const booking = newBooking({
    id: command.id,
    resource,
    bookerProfileId: actor.sub,
    bookerEmail: command.bookerEmail ?? actor.email,
    title: command.title,
    startTime: command.startTime,
    endTime: command.endTime,
    now,
  });
  return { type: 'BookingCreated', data: { booking, by: actor.sub, at: booking.createdAt } };
}
