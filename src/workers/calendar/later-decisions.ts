import { answerLaterDecision } from '../../commands/calendar/answer-later-decision.js';
import type { CommandContext } from '../../commands/command-context.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { Processor } from '../processor.js';

/** The booking events that may change the answer of a room holding the booking (its status). */
const decidingTypes = new Set(['BookingConfirmed', 'BookingCancelled', 'BookingMarkedNoShow']);

/**
 * Where the processor stands in the log, and where it begins the first time: the start. No booking
 * made before contract §26 belongs to an event, so the first pass over older history acts on
 * nothing (each event is passed by its type or its empty calendarUid), and beginning there needs
 * no place taken before the first write: a process starts while the log's store is unreachable.
 */
export const laterDecisionsCheckpoint = { name: 'calendar-later-decisions', firstPosition: 'log-start' } as const;

/**
 * The process manager's half of contract §26 "Decisions made later": a booking made by an
 * organizer's event (calendarUid) confirmed, declined, expired, cancelled or marked no-show by
 * anything but the event's own write reaches the event's room answers and the organizer's inbox.
 * The command compares with the booking as it stands, so a repeat, an event read late, or the
 * event's own write (its answers appended with the move) changes nothing.
 */
export function laterDecisions(ctx: CommandContext): Processor {
  return {
    ...laterDecisionsCheckpoint,
    mode: 'at-least-once',
    async handle(event) {
      if (!decidingTypes.has(event.type)) return;
      await answerLaterDecision(ctx, (event as unknown as BookingEvent).data.booking);
    },
  };
}
