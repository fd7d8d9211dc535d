import type { Temporal } from 'temporal-polyfill';
import type { BookingDecisionState } from '../../domain/booking/booking-decision-state.js';
import type { RescheduleBookingState } from '../../domain/booking/decide-reschedule-booking.js';
import type { CreateSeriesState } from '../../domain/booking/series/decide-create-series.js';
import type { CancelSeriesState } from '../../domain/booking/series/decide-cancel-series.js';
import type { RoomSeries } from '../../domain/calendar/invitation/room-series.js';
import type { RoomAnswer } from '../../domain/calendar/invitation/calendar-event-events.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { QuotaBoundState } from '../placement/placement-state.js';
import type { WithWaiters } from '../placement/promotions.js';

/** A room's times in its own zone (floating and all-day times read there). */
export type RoomTimes = { start: Temporal.Instant; end: Temporal.Instant };

/**
 * What one room of an organizer's event asks on this write (contract §26), with the state its
 * decision reads: each room is decided on its own, as separate room mailboxes are.
 */
export type RoomCase =
  /** The address names no resource the organizer can see: DECLINED, 3.7. */
  | { kind: 'unresolved'; address: string }
  /** Nothing to decide: the stored answer stands. */
  | { kind: 'kept'; answer: RoomAnswer }
  /** A room new to the event, or declined before and asked again at new times: the create's verdict. */
  | { kind: 'create'; address: string; resource: Resource; times: RoomTimes; state: QuotaBoundState }
  /** A room holding a booking, its times or title changed: the reschedule's verdict, a refusal cancels the booking. */
  | { kind: 'move'; address: string; previous: RoomAnswer; times: RoomTimes; state: RescheduleBookingState & WithWaiters }
  /** A room leaving the event (removed, the event cancelled or deleted): its booking cancelled. */
  | { kind: 'cancel'; previous: RoomAnswer; reason: string; stays: boolean; state: BookingDecisionState & WithWaiters }
  /**
   * A room asked for a recurring event, new to it or at a new rule or new times: the §6 series'
   * verdict occurrence by occurrence (the bookings it replaces left out of the state); `starts`
   * are the occurrences' starts the quota ledger was read for.
   */
  | { kind: 'series'; address: string; resource: Resource; series: RoomSeries; state: CreateSeriesState; starts: Temporal.Instant[] }
  /** A room's series leaving the event, or replaced by the event's new times (`stays` false, no answer of its own): its series cancelled. */
  | { kind: 'cancel-series'; previous: RoomAnswer; reason: string; stays: boolean; state: CancelSeriesState & WithWaiters };
