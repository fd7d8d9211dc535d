import type { QuotaLedger } from './quota-refusal.js';
import type { QuotaUsage } from './quota-usage.js';

/** What a single booking's quota check depends on: each quota and the usage of its period. */
export const usagesFingerprint = (usages: readonly QuotaUsage[]): string =>
  JSON.stringify(usages.map((u) => [u.id, u.periodStart.epochMilliseconds, u.used]));

/** What a series' quota check depends on: the quotas and every counted booking with its resource's matchers. */
export const ledgerFingerprint = (ledger: QuotaLedger): string =>
  JSON.stringify([
    ledger.quotas.map((q) => q.id),
    ledger.counted.map((b) => [b.id, b.startTime.epochMilliseconds, b.endTime.epochMilliseconds, b.resource.id, b.resource.resourceType, b.resource.groupId]),
  ]);
