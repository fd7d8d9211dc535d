import { archiveBookings } from '../../commands/booking/archive-bookings.js';
import type { Services } from '../../services.js';
import { createExclusiveLock } from '../create-exclusive-lock.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';

const dayMs = 24 * 60 * 60 * 1_000;

/**
 * Retention (contract §13): once a day, from one instance at a time, archives the bookings that
 * ended more than RETENTION_DAYS ago. RETENTION_DAYS=0 keeps everything live. A run that fails is
 * retried with the loop's backoff; it resumes where the last one stopped (archiveBookings).
 */
export function startRetentionLoop(services: Services, options: WorkerOptions): RunningLoop {
  const { config, logger } = services;
  const lock = createExclusiveLock(services, 'retention');
  return startSupervisedLoop(
    'retention',
    logger,
    async () => {
      if (config.retentionDays === 0) return options.retentionIntervalMs;
      if (!(await lock.acquire())) return options.standbyRetryMs;
      const before = services.now().subtract({ milliseconds: config.retentionDays * dayMs });
      const { archived } = await archiveBookings(services, before);
      if (archived > 0) logger.info({ archived, before: before.toString() }, 'retention archived ended bookings');
      return options.retentionIntervalMs;
    },
    { backoff: options.backoff, onStop: () => lock.release() },
  );
}
