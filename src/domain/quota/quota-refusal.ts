import type { Temporal } from 'temporal-polyfill';
import { DomainError } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';
import { quotaMatches, type Quota } from './quota.js';
import type { CountedBooking, QuotaUsage } from './quota-usage.js';

/** Hours are compared in milliseconds: 0.1 + 0.2 hours fit a limit of 0.3. */
const exceeds = (usage: QuotaUsage, start: Temporal.Instant, end: Temporal.Instant): boolean =>
  usage.unit === 'bookings'
    ? usage.used + 1 > usage.limit
    : Math.round(usage.used * 3_600_000) + (end.epochMilliseconds - start.epochMilliseconds) > Math.round(usage.limit * 3_600_000);

/**
 * The first quota that a booking of [start, end) on `resource` would take over its limit, or null.
 * `quotas` carry the booker's usage in the period that contains `start` (the booking itself, when
 * rescheduled, left out of it).
 */
export function quotaRefusal(quotas: readonly QuotaUsage[], resource: Resource, start: Temporal.Instant, end: Temporal.Instant): Quota | null {
  for (const usage of quotas) {
    if (quotaMatches(usage, resource) && isExhaustedFor(usage, start, end)) return usage;
  }
  return null;
}

/**
 * Whether a booking of [start, end) on any resource the quota matches would take it over its
 * limit: quotaRefusal's verdict apart from the matchers (the free search asks it once per quota).
 */
export function isExhaustedFor(usage: QuotaUsage, start: Temporal.Instant, end: Temporal.Instant): boolean {
  const starts = start.epochMilliseconds;
  // A usage of another period says nothing about this booking.
  if (starts < usage.periodStart.epochMilliseconds || starts >= usage.periodEnd.epochMilliseconds) return false;
  return exceeds(usage, start, end);
}

/** 422 policy `quota` naming the quota. */
export function quotaViolation(quota: Quota, what = 'the booking'): DomainError {
  const limit = `${quota.limit} ${quota.unit} per ${quota.per}`;
  return new DomainError('policy_violation', `${what} would exceed the quota of ${limit}`, { policy: 'quota', quotaId: quota.id });
}

/** What a series decision needs: the workspace's quotas and the booker's counted bookings around the occurrences. */
export type QuotaLedger = { quotas: readonly Quota[]; counted: readonly CountedBooking[] };

export const emptyQuotaLedger: QuotaLedger = { quotas: [], counted: [] };
