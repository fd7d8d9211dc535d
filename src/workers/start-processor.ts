import type { Database } from '../infra/db/database.js';
import type { EventStore } from '../infra/event-store/event-store.js';
import type { Logger } from '../infra/logger.js';
import type { ExclusiveLock } from './exclusive-lock.js';
import { processBatch } from './process-batch.js';
import type { Processor } from './processor.js';
import { startSupervisedLoop, type Backoff, type RunningLoop } from './supervised-loop.js';

export type ProcessorOptions = {
  batchSize: number;
  /** Pause when the log has nothing new. */
  pollIntervalMs: number;
  /** Pause of a standby instance before it tries the lock again. */
  standbyRetryMs: number;
  backoff: Backoff;
};

/** Runs one processor for as long as this instance holds its lock; a standby instance waits to take over. */
export function startProcessor(
  deps: { db: Database; eventStore: EventStore; logger: Logger; lock: ExclusiveLock },
  processor: Processor,
  options: ProcessorOptions,
): RunningLoop {
  return startSupervisedLoop(
    `processor ${processor.name}`,
    deps.logger,
    async () => {
      if (!(await deps.lock.acquire())) return options.standbyRetryMs;
      const read = await processBatch(deps, processor, options.batchSize);
      return read === options.batchSize ? 0 : options.pollIntervalMs;
    },
    { backoff: options.backoff, onStop: () => deps.lock.release() },
  );
}
