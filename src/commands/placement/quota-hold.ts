import { sql, type Transaction } from 'kysely';
import { quotaLockKey } from '../../infra/db/lock-keys.js';
import type { DB } from '../../infra/db/schema.js';
import type { InTransaction } from '../../infra/event-store/event-store.js';
import { overlapMeansRetry } from './overlap-means-retry.js';

/** The booker's quota usage changed between the decision's read and the append: decide again. */
export class QuotaUsageChanged extends Error {
  constructor() {
    super('the booker’s quota usage changed while the booking was decided');
    this.name = 'QuotaUsageChanged';
  }
}

/**
 * The guard of a quota (ARCHITECTURE, "Questions across resources"): in the booking append's
 * transaction, a transaction-scoped advisory lock on (workspace, booker) makes that booker's
 * quota-bound appends take turns across every process. Holding it, the usage is read again: it
 * sees every such append committed before (the lock is released only after its commit), and if
 * it differs from what the decision saw, the append rolls back and the command decides again on
 * the fresh usage. So what commits was always decided on the usage it commits onto.
 * `seen` and `reread` are one fingerprint of the usage the decision depends on.
 */
export function holdQuota(workspace: string, booker: string, seen: string, reread: (trx: Transaction<DB>) => Promise<string>): InTransaction<Transaction<DB>> {
  return async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${quotaLockKey(workspace, booker)}, 0))`.execute(trx);
    if ((await reread(trx)) !== seen) throw new QuotaUsageChanged();
  };
}

/** The hold inside the append's statement (migration 0027) found the usage changed. */
const isQuotaUsageSeenViolation = (error: { code?: string; constraint?: string }) => error.code === '23514' && error.constraint === 'bookings_quota_usage_seen';

/** Retries a changed quota usage as the handler retries an overlap the decision did not see. */
export function quotaOrOverlapMeansRetry(error: { code?: string; constraint?: string }): 'retry' | undefined {
  return error instanceof QuotaUsageChanged || isQuotaUsageSeenViolation(error) ? 'retry' : overlapMeansRetry(error);
}
