import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../domain/access/principal.js';
import { seriesSlots, type CreateSeries, type CreateSeriesState } from '../../../domain/booking/series/decide-create-series.js';
import { namedBookerId } from '../../../domain/booking/booker.js';
import { occupiedRangesOf } from '../../../domain/booking/occupied-range.js';
import type { Executor } from '../../../infra/db/database.js';
import { countActiveBookingsOfBooker, findActiveOverlappingAny } from '../../../projections/booking/booking-queries.js';
import { findBlackoutsOverlappingAny } from '../../../projections/blackout/blackout-queries.js';
import { findResource } from '../../../projections/resource/resource-queries.js';
import { findQuotaLedger } from '../../../projections/quota/quota-queries.js';

/** The resource, the active bookings (occupied ranges) and blackouts in the way of any occurrence, the booker's count and quota ledger. */
export async function loadCreateSeriesState(db: Executor, resourceId: string, actor: Principal, command: CreateSeries, now: Temporal.Instant): Promise<CreateSeriesState> {
  const resource = await findResource(db, resourceId);
  const limit = resource?.bookingPolicy.maxBookingsPerUser ?? null;
  const slots = seriesSlots(command, resource, actor, now);
  const booker = namedBookerId(command, actor);
  const [overlapping, activeBookingsOfBooker, quotaLedger, blackouts] = await Promise.all([
    findActiveOverlappingAny(db, resourceId, occupiedRangesOf(slots, resource)),
    limit === null ? 0 : countActiveBookingsOfBooker(db, resourceId, booker, limit),
    resource && slots.length > 0 ? findQuotaLedger(db, resource.workspace, booker, slots.map((slot) => slot.start)) : undefined,
    resource ? findBlackoutsOverlappingAny(db, resource.workspace, slots) : [],
  ]);
  return { resource, overlapping, activeBookingsOfBooker, quotaLedger, blackouts };
}
