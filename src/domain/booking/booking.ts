export type BookingStatus = 'pending' | 'confirmed' | 'completed' | 'cancelled' | 'no_show';

/** Statuses that hold the slot: only these conflict with a new booking. */
export const activeStatuses: readonly BookingStatus[] = ['pending', 'confirmed'];

/** A booking as the domain and the read model know it; times are ISO 8601 UTC. */
export type Booking = {
  id: string;
  bookableResourceId: string;
  workspace: string;
  resourceType: 'zone' | 'device';
  resourceId: string;
  bookerProfileId: string;
  bookerEmail: string | null;
  /** The acting `sub` that created it (contract §17): the booker, or whoever booked on their behalf. */
  createdBy: string;
  title: string;
  startTime: string;
  endTime: string;
  /** The resource's buffers when the booking was decided: it occupies [startTime − before, endTime + after). */
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** How many units of its resource it takes (contract §21): 1 on a room, and on every booking made before pools. */
  units: number;
  /**
   * Whether it was placed on a pool (a resource with more than one unit): decided by counting units
   * rather than by the one-unit rule, and so guarded in the database by the count, not the exclusion
   * constraint (migration 0031). Kept through every later change of the booking.
   */
  pooled: boolean;
  status: BookingStatus;
  /** The record of a series that holds the rule; never a conflict, never in a schedule. */
  isSeriesParent: boolean;
  recurrenceRule: string | null;
  recurrenceTimeZone: string | null;
  recurrenceParentId: string | null;
  exceptionOf: string | null;
  /** The bundle it was created in (contract §22), null for any other booking (upcastBooking: events written before bundles lack it). */
  bundleId: string | null;
  /** The UID of the organizer's calendar event that made it (contract §26), null for any other booking; moved only through that event. */
  calendarUid: string | null;
  confirmedBy: string | null;
  confirmedAt: string | null;
  cancelledBy: string | null;
  cancelledAt: string | null;
  /** The approver a delegate acted for in the booking's last decision (confirm or cancel, contract §24); null when it was not a delegate's. */
  onBehalfOf: string | null;
  reason: string | null;
  checkedInAt: string | null;
  checkedOutAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** How many times it changed since it was created (see booking-sequence.ts); absent in events written before the count. */
  sequence?: number;
  /** When retention moved it to the archive (contract §13); absent or null while it is live. */
  archivedAt?: string | null;
};

/** What a booking in the way of another is judged by: its status and the time it occupies. */
export type HeldBooking = Pick<Booking, 'id' | 'status' | 'isSeriesParent' | 'startTime' | 'endTime' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'units'>;
