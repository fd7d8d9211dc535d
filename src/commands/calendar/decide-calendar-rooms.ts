import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import { instantOf, utcText } from '../../domain/booking/booking-time.js';
import { decideCancelSeries } from '../../domain/booking/series/decide-cancel-series.js';
import { defaultSeriesTimeZone } from '../../domain/booking/series/series-pattern.js';
import { decideRoomSeries } from '../../domain/calendar/invitation/decide-room-series.js';
import { decideCancelBooking } from '../../domain/booking/decide-cancel-booking.js';
import { decideCreateBooking } from '../../domain/booking/decide-create-booking.js';
import { decideRescheduleBooking } from '../../domain/booking/decide-reschedule-booking.js';
import type { RoomAnswer } from '../../domain/calendar/invitation/calendar-event-events.js';
import { acceptedAnswer, roomAnswerOfRefusal } from '../../domain/calendar/invitation/request-status.js';
import { DomainError, notFound } from '../../domain/domain-error.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import { promoteWaiters, type Waiter } from '../../domain/waitlist/promote-waiters.js';
import type { WaitlistEvent } from '../../domain/waitlist/waitlist-events.js';
import type { StreamEvents } from '../handle-command.js';
import type { RoomCase, RoomTimes } from './calendar-room-cases.js';
import { countedLedger, withChanges } from './room-quota-changes.js';

/** What every room of one write shares: the event's UID and title, who writes it, when. */
export type RoomDecisionContext = { uid: string; title: string; actor: Principal; now: Temporal.Instant; newId: () => string };

/** One room decided: its answer (none for a room that left the event), the times it decided on (null: none of its own), its resource's events. */
export type RoomDecision = { answer: RoomAnswer | null; times: RoomTimes | null; events: StreamEvents<BookingEvent | WaitlistEvent> | null };

/** A booking's answer: ACCEPTED when confirmed, TENTATIVE while it waits for approval (contract §24). */
const answerOfBooking = (address: string, booking: Booking): RoomAnswer => ({
  address,
  resourceId: booking.bookableResourceId,
  bookingId: booking.id,
  ...acceptedAnswer(booking.status === 'confirmed' ? 'confirmed' : 'pending'),
});

/** A freeing move's events on the booking's stream, followed by the promotions of the waiters it lets in (contract §23). */
function freeing(events: BookingEvent[], waiters: readonly Waiter[], ctx: RoomDecisionContext) {
  const streamId = resourceStreamId(events[0]!.data.booking.bookableResourceId);
  return { streamId, events: [...events, ...promoteWaiters(events, waiters, ctx.now, ctx.newId)] };
}

/** A refusal becomes the room's answer; anything else is no verdict and propagates. */
function refused(error: unknown, address: string, resource: { id: string; units: number } | null): RoomAnswer {
  if (!(error instanceof DomainError)) throw error;
  return { address, resourceId: resource?.id ?? null, bookingId: null, ...roomAnswerOfRefusal(error, resource) };
}

/**
 * One room's decision by the REST command's own verdict (contract §26): a create, a reschedule
 * (refused → the booking cancelled with reason "declined: …"), a cancel. A refusal does not
 * refuse the write: it is the room's DECLINED answer. A cancel the booking's policy refuses (its
 * notice) refuses the write, since the room would otherwise keep a booking the event no longer asks for.
 */
export function decideRoom(room: RoomCase, ctx: RoomDecisionContext): RoomDecision {
  const { actor, now } = ctx;
  switch (room.kind) {
    case 'unresolved':
      return { answer: refused(notFound('resource'), room.address, null), times: null, events: null };
    case 'kept':
      return { answer: room.answer, times: null, events: null };
    case 'create':
      try {
        const created = decideCreateBooking(
          { id: ctx.newId(), title: ctx.title, startTime: room.times.start, endTime: room.times.end, units: 1, calendarUid: ctx.uid },
          room.state,
          actor,
          now,
        );
        return { answer: answerOfBooking(room.address, created.data.booking), times: room.times, events: { streamId: resourceStreamId(room.resource.id), events: [created] } };
      } catch (error) {
        return { answer: refused(error, room.address, room.resource), times: room.times, events: null };
      }
    case 'move': {
      const command = { startTime: room.times.start, endTime: room.times.end, title: ctx.title };
      try {
        const moved = decideRescheduleBooking(command, room.state, actor, now, { calendar: true });
        const booking = moved.at(-1)?.data.booking ?? room.state.booking!;
        return { answer: answerOfBooking(room.address, booking), times: room.times, events: moved.length === 0 ? null : freeing(moved, room.state.waiters, ctx) };
      } catch (error) {
        const answer = refused(error, room.address, room.state.resource);
        const cancelled = decideCancelBooking(room.state, actor, now, `declined: ${(error as DomainError).message}`);
        return { answer, times: room.times, events: freeing([cancelled], room.state.waiters, ctx) };
      }
    }
    case 'cancel': {
      const { booking } = room.state;
      const active = booking !== null && (booking.status === 'pending' || booking.status === 'confirmed');
      const events = active ? freeing([decideCancelBooking(room.state, actor, now, room.reason)], room.state.waiters, ctx) : null;
      const answer: RoomAnswer | null = room.stays ? { ...room.previous, bookingId: null, partstat: 'DECLINED' } : null;
      return { answer, times: booking ? { start: instantOf(booking.startTime), end: instantOf(booking.endTime) } : null, events };
    }
    case 'series': {
      const times = { start: room.series.startTime, end: room.series.endTime };
      try {
        const ask = { parentId: ctx.newId(), newId: ctx.newId, title: ctx.title, calendarUid: ctx.uid };
        const { events, declined } = decideRoomSeries(room.series, ask, room.state, actor, now);
        const answer: RoomAnswer = {
          ...answerOfBooking(room.address, events[0]!.data.booking),
          ...(declined.length > 0 && { declined: { resourceTimeZone: defaultSeriesTimeZone(room.resource), starts: declined.map(utcText) } }),
        };
        return { answer, times, events: { streamId: resourceStreamId(room.resource.id), events } };
      } catch (error) {
        return { answer: refused(error, room.address, room.resource), times, events: null };
      }
    }
    case 'cancel-series': {
      const { parent } = room.state;
      const events = parent ? freeing(decideCancelSeries(room.state, actor, now, room.reason), room.state.waiters, ctx) : null;
      const answer: RoomAnswer | null = room.stays ? { ...room.previous, bookingId: null, partstat: 'DECLINED', declined: undefined } : null;
      return { answer, times: parent ? { start: instantOf(parent.startTime), end: instantOf(parent.endTime) } : null, events };
    }
  }
}

/**
 * Every room decided on its own, in the event's order, as the REST commands would be one after
 * the other: each judged on its state with the steps before it counted in the booker's quotas (a
 * room booked or moved counted at its new times, one cancelled not at all); the events grouped by stream.
 */
export function decideRooms(rooms: readonly RoomCase[], ctx: RoomDecisionContext): { decisions: RoomDecision[]; streams: StreamEvents<BookingEvent | WaitlistEvent>[] } {
  const ledger = countedLedger(ctx.actor.sub);
  const decisions = rooms.map((room) => {
    const decision = decideRoom(withChanges(room, ledger.changes()), ctx);
    ledger.record(room, decision);
    return decision;
  });
  const byStream = new Map<string, (BookingEvent | WaitlistEvent)[]>();
  for (const { events } of decisions) if (events) byStream.set(events.streamId, [...(byStream.get(events.streamId) ?? []), ...events.events]);
  return { decisions, streams: [...byStream].map(([streamId, events]) => ({ streamId, events })) };
}
