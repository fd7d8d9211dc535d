import type { Services } from '../../services.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';
import { fireDueTimers } from './fire-due-timers.js';

/** Fires due timers round after round; any number of these may run, across processes. */
export function startTimerLoop(services: Services, options: WorkerOptions): RunningLoop {
  const firing = { batchSize: options.batchSize, leaseMs: options.timerLeaseMs, retryMs: options.timerRetryMs };
  return startSupervisedLoop(
    'timers',
    services.logger,
    async () => ((await fireDueTimers(services, firing)) === options.batchSize ? 0 : options.pollIntervalMs),
    { backoff: options.backoff },
  );
}
