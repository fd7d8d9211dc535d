import { blackoutEventTypes, publishedBlackoutEventName, type BlackoutEvent } from '../../domain/blackout/blackout-events.js';
import { bookingEventTypes, publishedEventName, type BookingEvent } from '../../domain/booking/booking-events.js';
import { resourceEventName } from '../../domain/resource/resource-event-envelope.js';
import { resourceEventTypes, type ResourceEvent } from '../../domain/resource/resource-events.js';
import { isWaitlistEvent, publishedWaitlistEventName } from '../../domain/waitlist/waitlist-events.js';

/** Names of the stored kinds that are not published today. */
const unpublishedEventNames: Record<string, string> = {
  BookingArchived: 'booking.archive',
  BookingDetached: 'booking.detach',
};

/**
 * The platform name of any stored event, published today or not: a published kind is named as the
 * webhooks and Kafka name it (a PATCH of isActive is `resource.activate` or `resource.deactivate`);
 * an unnamed kind keeps its stored type.
 */
export function historyEventName(event: { type: string; data: Record<string, unknown> }): string {
  if (bookingEventTypes.has(event.type)) return publishedEventName[event.type as BookingEvent['type']];
  if (resourceEventTypes.has(event.type)) return resourceEventName(event as ResourceEvent);
  if (blackoutEventTypes.has(event.type)) return publishedBlackoutEventName[event.type as BlackoutEvent['type']];
  if (isWaitlistEvent(event)) return publishedWaitlistEventName[event.type];
  return unpublishedEventNames[event.type] ?? event.type;
}
