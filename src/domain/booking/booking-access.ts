import { canSeeWorkspace, isAdmin, type Principal } from '../access/principal.js';
import { forbidden, notFound } from '../domain-error.js';
import type { Booking } from './booking.js';

/** LV1–LV3 see every booking of the workspaces they see; LV4/LV5 only their own. */
export function canSeeBooking(actor: Principal, booking: Booking): boolean {
  return canSeeWorkspace(actor, booking.workspace) && (isAdmin(actor) || booking.bookerProfileId === actor.sub);
}

/** The booking the actor may see, or 404: another user's booking is never revealed. */
export function visibleBooking(actor: Principal, booking: Booking | null): Booking {
  if (!booking || !canSeeBooking(actor, booking)) throw notFound('booking');
  return booking;
}

/** Changing a booking: its booker or LV1–LV3. */
export function assertBookerOrAdmin(actor: Principal, booking: Booking): void {
  if (!isAdmin(actor) && booking.bookerProfileId !== actor.sub) throw forbidden('only the booker or an admin (LV1–LV3) may change this booking');
}
