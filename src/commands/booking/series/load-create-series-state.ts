import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../domain/access/principal.js';
import { seriesSlots, type CreateSeries, type CreateSeriesState } from '../../../domain/booking/series/decide-create-series.js';
import type { Executor } from '../../../infra/db/database.js';
import { countActiveBookingsOfBooker, findActiveOverlappingAny } from '../../../projections/bookings/booking-queries.js';
import { findBlackoutsOverlappingAny } from '../../../projections/blackouts/blackout-queries.js';
import { findResource } from '../../../projections/resources/resource-queries.js';

/** The resource, the active bookings and blackouts in the way of any occurrence, and the booker's count. */
export async function loadCreateSeriesState(db: Executor, resourceId: string, actor: Principal, command: CreateSeries, now: Temporal.Instant): Promise<CreateSeriesState> {
  const resource = await findResource(db, resourceId);
  const limit = resource?.bookingPolicy.maxBookingsPerUser ?? null;
  const slots = seriesSlots(command, resource, actor, now);
  const [overlapping, activeBookingsOfBooker, blackouts] = await Promise.all([
    findActiveOverlappingAny(db, resourceId, slots),
    limit === null ? 0 : countActiveBookingsOfBooker(db, resourceId, actor.sub, limit),
    resource ? findBlackoutsOverlappingAny(db, resource.workspace, slots) : [],
  ]);
  return { resource, overlapping, activeBookingsOfBooker, blackouts };
}
