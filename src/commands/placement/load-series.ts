import type { Temporal } from 'temporal-polyfill';
import type { Booking } from '../../domain/booking/booking.js';
import type { Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findBookedResource, findBooking, findSeriesOccurrences } from '../../projections/booking/booking-queries.js';

export type LoadedSeries = { parent: Booking | null; resource: Resource | null; upcoming: Booking[] };

/** A series parent, its resource (removed ones included) and its occurrences that start after now. */
export async function loadSeries(db: Executor, parentId: string, now: Temporal.Instant): Promise<LoadedSeries> {
  const parent = await findBooking(db, parentId);
  if (!parent) return { parent, resource: null, upcoming: [] };
  const [resource, upcoming] = await Promise.all([findBookedResource(db, parent.bookableResourceId), findSeriesOccurrences(db, parentId, now)]);
  return { parent, resource, upcoming };
}
