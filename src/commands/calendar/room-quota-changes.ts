import type { Booking } from '../../domain/booking/booking.js';
import { isBookingEvent } from '../../domain/booking/booking-events.js';
import { countedOf, ledgerAfter, usagesAfter, type CountedChanges } from '../../domain/quota/quota-changes.js';
import type { CountedBooking } from '../../domain/quota/quota-usage.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { RoomCase } from './calendar-room-cases.js';

/** A case's state with what the write's earlier steps changed of the booker's counted bookings: each counted at its new times only. */
export function withChanges(room: RoomCase, changes: CountedChanges): RoomCase {
  switch (room.kind) {
    case 'create':
      return room.state.quotas.length === 0 ? room : { ...room, state: { ...room.state, quotas: usagesAfter(room.state.quotas, changes) } };
    case 'move':
      return room.state.quotas?.length ? { ...room, state: { ...room.state, quotas: usagesAfter(room.state.quotas, changes) } } : room;
    case 'series':
      return room.state.quotaLedger ? { ...room, state: { ...room.state, quotaLedger: ledgerAfter(room.state.quotaLedger, changes) } } : room;
    default:
      return room;
  }
}

/** The bookings a case's state held before its decision (those it may move or cancel), and the resource they are on. */
function heldBefore(room: RoomCase): { bookings: readonly Booking[]; resource: Resource | null } {
  switch (room.kind) {
    case 'move':
    case 'cancel':
      return { bookings: room.state.booking ? [room.state.booking] : [], resource: room.state.resource };
    case 'cancel-series':
      return { bookings: room.state.upcoming, resource: room.state.resource };
    case 'create':
    case 'series':
      return { bookings: [], resource: room.resource };
    default:
      return { bookings: [], resource: null };
  }
}

/**
 * The booker's counted bookings as the write's steps so far leave them (contract §17 under §26):
 * each step's state was read before the write, so the steps after it are told what it changed.
 */
export function countedLedger(booker: string) {
  const before = new Map<string, CountedBooking>();
  const after = new Map<string, CountedBooking>();
  return {
    record(room: RoomCase, decision: { events: { events: readonly { type: string; data: unknown }[] } | null }): void {
      const held = heldBefore(room);
      const changed = (decision.events?.events ?? []).filter(isBookingEvent).filter((event) => event.data.booking.bookerProfileId === booker);
      // Only what its events changed: a booking it left as it was (one already completed) still counts where it stands.
      const touched = new Set(changed.map((event) => event.data.booking.id));
      for (const booking of held.bookings) {
        const counted = touched.has(booking.id) ? countedOf(booking, held.resource) : null;
        if (counted && !before.has(booking.id)) before.set(booking.id, counted);
      }
      for (const event of changed) {
        const counted = countedOf(event.data.booking, held.resource);
        if (counted) after.set(counted.id, counted);
        else after.delete(event.data.booking.id);
      }
    },
    changes: (): CountedChanges => ({ before: [...before.values()], after: [...after.values()] }),
  };
}
