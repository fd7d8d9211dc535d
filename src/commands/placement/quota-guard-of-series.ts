import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import type { BookingCreated } from '../../domain/booking/booking-events.js';
import { instantOf } from '../../domain/booking/booking-time.js';
import type { CreateSeries, CreateSeriesState } from '../../domain/booking/series/decide-create-series.js';
import { changedSeriesSlots, type UpdateSeries, type UpdateSeriesState } from '../../domain/booking/series/decide-update-series.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { quotaMatches } from '../../domain/quota/quota.js';
import { ledgerFingerprint } from '../../domain/quota/quota-fingerprint.js';
import { findQuotaLedger } from '../../projections/quota/quota-queries.js';
import { holdQuota } from './quota-hold.js';

/** The booker's hold for a new series' occurrences starting at `starts`, only when a quota of the workspace applies to its resource. */
export function quotaHoldOfSeries({ resource, quotaLedger }: CreateSeriesState, booker: string, starts: readonly Temporal.Instant[]) {
  if (!resource || !quotaLedger || !quotaLedger.quotas.some((quota) => quotaMatches(quota, resource))) return undefined;
  return holdQuota(resource.workspace, booker, ledgerFingerprint(quotaLedger), async (trx) => ledgerFingerprint(await findQuotaLedger(trx, resource.workspace, booker, starts)));
}

/** The booker's hold for a new series, only when a quota of the workspace applies to its resource; on the occurrences decided (the parent first). */
export const quotaGuardOfSeries =
  (command: CreateSeries, actor: Principal) =>
  (state: CreateSeriesState, [, ...occurrences]: readonly BookingCreated[]) =>
    // The booker named in the body (booking on behalf), whose ledger the state holds.
    quotaHoldOfSeries(state, namedBookerId(command, actor), occurrences.map((event) => instantOf(event.data.booking.startTime)));

/** The series' booker's hold for a change of the series, only when a quota of the workspace applies to its resource. */
export const quotaGuardOfSeriesUpdate =
  (command: UpdateSeries, now: Temporal.Instant) =>
  ({ parent, resource, quotaLedger }: UpdateSeriesState) => {
    if (!parent || !resource || !quotaLedger || !quotaLedger.quotas.some((quota) => quotaMatches(quota, resource))) return undefined;
    const starts = changedSeriesSlots(command, parent, resource, now).map((slot) => slot.start);
    return holdQuota(resource.workspace, parent.bookerProfileId, ledgerFingerprint(quotaLedger), async (trx) =>
      ledgerFingerprint(await findQuotaLedger(trx, resource.workspace, parent.bookerProfileId, starts)),
    );
  };
