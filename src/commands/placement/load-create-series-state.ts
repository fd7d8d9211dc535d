import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import { seriesSlots, type CreateSeries, type CreateSeriesState, type SeriesDecisionOptions } from '../../domain/booking/series/decide-create-series.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { occupiedRangesOf } from '../../domain/booking/occupied-range.js';
import type { Executor } from '../../infra/db/database.js';
import { countActiveBookingsOfBooker, findActiveOverlappingAny } from '../../projections/booking/booking-queries.js';
import { findBlackoutsOverlappingAny } from '../../projections/blackout/blackout-queries.js';
import { findResource } from '../../projections/resource/resource-queries.js';
import { findQuotaLedger } from '../../projections/quota/quota-queries.js';
import { findDelegationsOf } from '../../projections/approval/approval-delegation-queries.js';

/** The state of a series asked on a resource that is not registered: nothing to book on. */
export const unregisteredSeries: CreateSeriesState = { resource: null, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] };

/** The resource, the active bookings (occupied ranges) and blackouts in the way of any occurrence, the booker's count and quota ledger. */
export async function loadCreateSeriesState(
  db: Executor,
  resourceId: string,
  actor: Principal,
  command: CreateSeries,
  now: Temporal.Instant,
  options: SeriesDecisionOptions = {},
): Promise<CreateSeriesState> {
  const resource = await findResource(db, resourceId);
  const limit = resource?.bookingPolicy.maxBookingsPerUser ?? null;
  const slots = seriesSlots(command, resource, actor, now, options);
  const booker = namedBookerId(command, actor);
  // The approvers' delegations only when pending occurrences will name them (contract §24).
  const approvers = resource && !resource.bookingPolicy.autoConfirm ? resource.bookingPolicy.approvers : [];
  const [overlapping, activeBookingsOfBooker, quotaLedger, blackouts, delegations] = await Promise.all([
    findActiveOverlappingAny(db, resourceId, occupiedRangesOf(slots, resource)),
    limit === null ? 0 : countActiveBookingsOfBooker(db, resourceId, booker, limit),
    resource && slots.length > 0 ? findQuotaLedger(db, resource.workspace, booker, slots.map((slot) => slot.start)) : undefined,
    resource ? findBlackoutsOverlappingAny(db, resource.workspace, slots) : [],
    findDelegationsOf(db, approvers, new Date(now.epochMilliseconds)),
  ]);
  return { resource, overlapping, activeBookingsOfBooker, quotaLedger, blackouts, delegations };
}
