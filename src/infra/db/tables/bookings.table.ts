import type { Generated, Selectable } from 'kysely';
import type { BookingStatus } from '../../../domain/booking/booking.js';

export type BookingsTable = {
  id: string;
  bookable_resource_id: string;
  workspace: string;
  resource_type: 'zone' | 'device';
  resource_id: string;
  booker_profile_id: string;
  booker_email: string | null;
  created_by: string;
  title: string;
  start_time: Date;
  end_time: Date;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  units: number;
  pooled: boolean;
  status: BookingStatus;
  is_series_parent: Generated<boolean>;
  recurrence_rule: string | null;
  recurrence_time_zone: string | null;
  recurrence_parent_id: string | null;
  exception_of: string | null;
  /** The bundle the booking was created in (contract §22), null for every other booking. */
  bundle_id: string | null;
  /** The UID of the organizer's calendar event that made the booking (contract §26), null for every other booking. */
  calendar_uid: string | null;
  confirmed_by: string | null;
  confirmed_at: Date | null;
  cancelled_by: string | null;
  cancelled_at: Date | null;
  /** The approver a delegate acted for in the booking's last decision (contract §24). */
  on_behalf_of: string | null;
  reason: string | null;
  checked_in_at: Date | null;
  checked_out_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** How many times the booking changed since it was created (a calendar's SEQUENCE, contract §18). */
  sequence: number;
};

export type BookingRow = Selectable<BookingsTable>;

/** Ended bookings moved out of `bookings` by retention (contract §13). */
export type BookingsArchiveTable = Omit<BookingsTable, 'is_series_parent'> & { is_series_parent: boolean; archived_at: Date };

export type ArchivedBookingRow = Selectable<BookingsArchiveTable>;
