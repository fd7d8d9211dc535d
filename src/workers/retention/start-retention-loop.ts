import { archiveBookings } from '../../commands/booking/archive-bookings.js';
import { isDailyRunDue, msUntilNextDailySlot } from '../../domain/time/daily-slot.js';
import type { Services } from '../../services.js';
import { createExclusiveLock } from '../create-exclusive-lock.js';
import { readLastRun, recordRun } from '../scheduled-runs.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';

const dayMs = 24 * 60 * 60 * 1_000;
/** The longest pause: the loop looks again at least hourly, so a clock that jumped or a host that slept cannot push a run back by a day. */
const longestPauseMs = 60 * 60 * 1_000;

/**
 * Retention (contract §13): daily at `retentionHourUtc`:00 UTC, from one instance at a time,
 * archives the bookings that ended more than RETENTION_DAYS ago. A worker that was not running at
 * that hour catches up once when it starts: the last complete run is kept (scheduled_runs). A run
 * that fails is retried with the loop's backoff; it resumes where the last one stopped
 * (archiveBookings). RETENTION_DAYS=0 keeps everything live.
 */
export function startRetentionLoop(services: Services, options: WorkerOptions): RunningLoop {
  const { config, db, logger } = services;
  const hourUtc = options.retentionHourUtc;
  const lock = createExclusiveLock(services, 'retention');
  const untilNextRun = () => Math.min(longestPauseMs, msUntilNextDailySlot(services.now(), hourUtc));
  return startSupervisedLoop(
    'retention',
    logger,
    async () => {
      if (config.retentionDays === 0) return untilNextRun();
      if (!(await lock.acquire())) return options.standbyRetryMs;
      const now = services.now();
      if (!isDailyRunDue(await readLastRun(db, 'retention'), now, hourUtc)) return untilNextRun();
      const before = now.subtract({ milliseconds: config.retentionDays * dayMs });
      const { archived } = await archiveBookings(services, before);
      if (archived > 0) logger.info({ archived, before: before.toString() }, 'retention archived ended bookings');
      await recordRun(db, 'retention', now);
      return untilNextRun();
    },
    { backoff: options.backoff, onStop: () => lock.release() },
  );
}
