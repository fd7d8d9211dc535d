import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { ApprovalDelegation } from '../approval/approval-delegation.js';
import { bookingCreated } from '../approval/pending-approvers.js';
import type { BookingCreated } from './booking-events.js';
import { bookerOf } from './booker.js';
import { placementRefusal, type PlacementState } from '../placement/placement-refusal.js';
import { newBooking } from './new-booking.js';

/** What a create decides on: a placement's state. */
export type CreateBookingState = PlacementState;
export type CreateBooking = {
  id: string;
  title: string;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** Defaults to the token's email when booking for oneself. */
  bookerEmail?: string | null;
  /** LV1–LV3: book for this user (contract §17); defaults to the token's `sub`. */
  bookerProfileId?: string;
  /** The bundle the booking is created in (contract §22). */
  bundleId?: string;
  /** Units of the resource it takes (contract §21); one when absent. */
  units?: number;
  /** The organizer's calendar event it is made for (contract §26). */
  calendarUid?: string;
};

/** The delegations given by the resource's approvers, for the `approvers` a pending booking's event names. */
export type ApproverDelegations = { delegations?: readonly ApprovalDelegation[] };

/** The placement's verdict (400 times → 403 level and booking on behalf → 404 resource → 422 policy → 409 conflict), then the booking. */
export function decideCreateBooking(command: CreateBooking, state: CreateBookingState & ApproverDelegations, actor: Principal, now: Temporal.Instant): BookingCreated {
  const refusal = placementRefusal(command, state, actor, now);
  if (refusal) throw refusal;
  const resource = state.resource!;
  const booker = bookerOf(command, actor);

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
    bundleId: command.bundleId ?? null,
    units: command.units ?? 1,
    calendarUid: command.calendarUid ?? null,
  });
  return bookingCreated(booking, actor.sub, resource, state.delegations ?? [], now);
}
