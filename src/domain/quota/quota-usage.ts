import type { Temporal } from 'temporal-polyfill';
import type { Resource } from '../resource/resource.js';
import { quotaMatches, type Quota, type QuotaUnit } from './quota.js';
import { periodContaining } from './quota-period.js';

const msPerHour = 3_600_000;

/** A booking that counts against quotas (pending, confirmed, completed or no_show; no series parent), with its resource's matchers. */
export type CountedBooking = {
  id: string;
  resource: Pick<Resource, 'id' | 'resourceType' | 'groupId'>;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
};

/** A quota with what one booker has used of it in the period that contains a given instant. */
export type QuotaUsage = Quota & {
  periodStart: Temporal.Instant;
  periodEnd: Temporal.Instant;
  /** In the quota's unit: hours (a decimal number) or bookings. */
  used: number;
};

/** What one booking of these times uses of a quota in `unit`. */
export function amountOf(unit: QuotaUnit, start: Temporal.Instant, end: Temporal.Instant): number {
  return unit === 'bookings' ? 1 : (end.epochMilliseconds - start.epochMilliseconds) / msPerHour;
}

/**
 * Each quota with the usage of `counted` (one booker's bookings) in the quota's period that
 * contains `at`: the bookings on matching resources that start in that period.
 */
export function quotaUsagesAt(quotas: readonly Quota[], counted: readonly CountedBooking[], at: Temporal.Instant): QuotaUsage[] {
  return quotas.map((quota) => {
    const period = periodContaining(quota.per, quota.timeZone, at);
    let usedMs = 0;
    let count = 0;
    for (const booking of counted) {
      const starts = booking.startTime.epochMilliseconds;
      if (starts < period.start.epochMilliseconds || starts >= period.end.epochMilliseconds || !quotaMatches(quota, booking.resource)) continue;
      usedMs += booking.endTime.epochMilliseconds - starts;
      count += 1;
    }
    // Summed in milliseconds, divided once: no drift from adding fractions of hours.
    return { ...quota, periodStart: period.start, periodEnd: period.end, used: quota.unit === 'bookings' ? count : usedMs / msPerHour };
  });
}
