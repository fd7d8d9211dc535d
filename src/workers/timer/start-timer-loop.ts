import type { Services } from '../../services.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';
import { expireWaiters } from '../waitlist/expire-waiters.js';
import { fireDueTimers } from './fire-due-timers.js';

/** Fires due timers round after round, and closes the waiting entries whose start has passed; any number of these may run, across processes. */
export function startTimerLoop(services: Services, options: WorkerOptions): RunningLoop {
  const firing = { batchSize: options.batchSize, leaseMs: options.timerLeaseMs, retryMs: options.timerRetryMs };
  return startSupervisedLoop(
    'timers',
    services.logger,
    async () => {
      const fired = await fireDueTimers(services, firing);
      const expired = await expireWaiters(services, options.batchSize);
      return fired === options.batchSize || expired === options.batchSize ? 0 : options.pollIntervalMs;
    },
    { backoff: options.backoff },
  );
}
