import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../domain/access/principal.js';
import { activeStatuses, type Booking } from '../../../domain/booking/booking.js';
import type { BookingEvent } from '../../../domain/booking/booking-events.js';
import { instantOf, parseClientInstant } from '../../../domain/booking/booking-time.js';
import {
  changedSeriesSlots,
  decideUpdateSeries,
  type UpdateSeries,
  type UpdateSeriesState,
} from '../../../domain/booking/series/decide-update-series.js';
import { occupiedRangesOf } from '../../../domain/booking/occupied-range.js';
import { resourceStreamId } from '../../../domain/resource/resource.js';
import type { Executor } from '../../../infra/db/database.js';
import { findBlackoutsOverlappingAny } from '../../../projections/blackout/blackout-queries.js';
import { countActiveBookingsOfBooker, findActiveOverlappingAny, findBooking } from '../../../projections/booking/booking-queries.js';
import type { CommandContext } from '../../command-context.js';
import { handleCommand } from '../../handle-command.js';
import { findQuotaLedger } from '../../../projections/quota/quota-queries.js';
import { quotaOrOverlapMeansRetry } from '../../placement/quota-hold.js';
import { quotaGuardOfSeriesUpdate } from '../../placement/quota-guard-of-series.js';
import type { CreatedSeries } from './create-series.js';
import { loadSeries } from '../../placement/load-series.js';

export type UpdateSeriesInput = { title?: string; startTime?: string; endTime?: string; recurrenceRule?: string; timeZone?: string };

const noSeries: UpdateSeriesState = { parent: null, resource: null, upcoming: [], overlapping: [], activeBookingsOfBooker: 0, blackouts: [] };

async function loadUpdateSeriesState(db: Executor, parentId: string, command: UpdateSeries, now: Temporal.Instant): Promise<UpdateSeriesState> {
  const { parent, resource, upcoming } = await loadSeries(db, parentId, now);
  if (!parent) return noSeries;
  const limit = resource?.bookingPolicy.maxBookingsPerUser ?? null;
  const slots = changedSeriesSlots(command, parent, resource, now);
  const [overlapping, activeBookingsOfBooker, blackouts, quotaLedger] = await Promise.all([
    findActiveOverlappingAny(db, parent.bookableResourceId, occupiedRangesOf(slots, resource)),
    // Counted past the limit by the occurrences the change may give back.
    limit === null ? 0 : countActiveBookingsOfBooker(db, parent.bookableResourceId, parent.bookerProfileId, limit + upcoming.length),
    findBlackoutsOverlappingAny(db, parent.workspace, slots),
    // The series' own occurrences are read too: the decision takes out those the change moves or cancels.
    slots.length > 0 ? findQuotaLedger(db, parent.workspace, parent.bookerProfileId, slots.map((slot) => slot.start)) : undefined,
  ]);
  return { parent, resource, upcoming, overlapping, activeBookingsOfBooker, blackouts, quotaLedger };
}

/** The series' active occurrences still ahead once the changed bookings replace those the decision saw. */
function upcomingAfterChange(parentId: string, upcoming: readonly Booking[], changed: readonly Booking[], now: Temporal.Instant): Booking[] {
  const byId = new Map(upcoming.map((b) => [b.id, b]));
  for (const booking of changed) byId.set(booking.id, booking);
  return [...byId.values()]
    .filter((b) => b.recurrenceParentId === parentId && activeStatuses.includes(b.status) && Temporal.Instant.compare(instantOf(b.startTime), now) > 0)
    .sort((a, b) => Temporal.Instant.compare(instantOf(a.startTime), instantOf(b.startTime)));
}

/** Changes the series in one append; answers the parent and the series' active occurrences still ahead. */
export async function updateSeries(ctx: CommandContext, actor: Principal, parentId: string, input: UpdateSeriesInput): Promise<CreatedSeries> {
  const command: UpdateSeries = {
    newId: randomUUID,
    title: input.title,
    startTime: input.startTime === undefined ? undefined : parseClientInstant(input.startTime, '/body/startTime'),
    endTime: input.endTime === undefined ? undefined : parseClientInstant(input.endTime, '/body/endTime'),
    recurrenceRule: input.recurrenceRule,
    timeZone: input.timeZone,
  };
  const now = ctx.now();
  const found = await findBooking(ctx.db, parentId);
  // An unknown series has no stream: the decision refuses it in the contract's order (400 and 403 before 404).
  const { state, events } = await handleCommand(ctx, found && resourceStreamId(found.bookableResourceId), {
    load: (db) => loadUpdateSeriesState(db, parentId, command, now),
    decide: (state) => decideUpdateSeries(command, state, actor, now),
    inTransactionFor: quotaGuardOfSeriesUpdate(command, now),
    onConstraintViolation: quotaOrOverlapMeansRetry,
  });
  const changed = events.map((event) => event.data.booking);
  const parent = changed.find((b) => b.id === parentId) ?? state.parent!;
  const occurrences = upcomingAfterChange(parentId, state.upcoming, changed, now);
  return { parent, occurrences };
}
