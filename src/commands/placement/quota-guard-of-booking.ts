import type { Temporal } from 'temporal-polyfill';
import { quotaMatches } from '../../domain/quota/quota.js';
import { usagesFingerprint } from '../../domain/quota/quota-fingerprint.js';
import type { QuotaUsage } from '../../domain/quota/quota-usage.js';
import type { Resource } from '../../domain/resource/resource.js';
import { findQuotaUsages } from '../../projections/quota/quota-queries.js';
import { holdQuota } from './quota-hold.js';

/**
 * The hold of one booking (created or rescheduled to `start`) on the booker's quotas: only when a
 * quota of the workspace applies to the resource, so that other appends pay nothing more.
 * `excluding`: the rescheduled booking, whose old times do not count against itself.
 */
export function quotaGuardOfBooking(workspace: string, booker: string, start: Temporal.Instant, excluding?: string) {
  return (resource: Resource | null, usages: readonly QuotaUsage[]) => {
    if (!resource) return undefined;
    const applying = (all: readonly QuotaUsage[]) => all.filter((usage) => quotaMatches(usage, resource));
    const seen = applying(usages);
    if (seen.length === 0) return undefined;
    return holdQuota(workspace, booker, usagesFingerprint(seen), async (trx) =>
      usagesFingerprint(applying(await findQuotaUsages(trx, workspace, booker, start, excluding))),
    );
  };
}
