import { rateLimitWindowSeconds } from '../../domain/request/rate-limit.js';
import { deleteExpiredIdempotencyKeys } from '../../infra/idempotency/idempotency-records.js';
import { deleteIdleBuckets } from '../../infra/rate-limit/token-buckets.js';
import type { Services } from '../../services.js';
import { createExclusiveLock } from '../create-exclusive-lock.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';

/** Rows per delete: short statements that never hold many locks at once. */
const batchSize = 1_000;

/**
 * Deletes, from one instance at a time, the Idempotency-Key answers kept past their 24 hours and
 * the rate-limit buckets idle for longer than a window (full again: as good as absent), every
 * `requestRecordsCleanupIntervalMs`.
 */
export function startRequestRecordsCleanup(services: Services, options: WorkerOptions): RunningLoop {
  const { db, logger } = services;
  const lock = createExclusiveLock(services, 'request-records-cleanup');
  return startSupervisedLoop(
    'request-records-cleanup',
    logger,
    async (stopping) => {
      if (!(await lock.acquire())) return options.standbyRetryMs;
      const now = services.now().epochMilliseconds;
      let keys = 0;
      let buckets = 0;
      for (let deleted = batchSize; deleted === batchSize && !stopping.aborted; keys += deleted) deleted = await deleteExpiredIdempotencyKeys(db, new Date(now), batchSize);
      const idleSince = new Date(Date.now() - 2 * rateLimitWindowSeconds * 1_000);
      for (let deleted = batchSize; deleted === batchSize && !stopping.aborted; buckets += deleted) deleted = await deleteIdleBuckets(db, idleSince, batchSize);
      if (keys > 0 || buckets > 0) logger.info({ idempotencyKeys: keys, rateLimitBuckets: buckets }, 'deleted expired request records');
      return options.requestRecordsCleanupIntervalMs;
    },
    { backoff: options.backoff, onStop: () => lock.release() },
  );
}
