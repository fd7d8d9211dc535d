import { bookingEventTypes, publishedEventName, type BookingEvent } from '../../domain/booking/booking-events.js';

/** Names of the stored kinds that are not booking events (contract §14 names the resource ones). */
const otherEventNames: Record<string, string> = {
  ResourceRegistered: 'resource.register',
  ResourceUpdated: 'resource.update',
  ResourceDeactivated: 'resource.deactivate',
  ResourceActivated: 'resource.activate',
  ResourceRemoved: 'resource.remove',
  BookingArchived: 'booking.archive',
  BookingDetached: 'booking.detach',
};

/** The platform name of any stored event, published today or not; an unnamed kind keeps its stored type. */
export function historyEventName(type: string): string {
  if (bookingEventTypes.has(type)) return publishedEventName[type as BookingEvent['type']];
  return otherEventNames[type] ?? type;
}
