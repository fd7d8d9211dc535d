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

/** A processor's loop; `isActive()` tells whether this instance holds its lock now (health). */
export type RunningProcessor = RunningLoop & { isActive(): boolean };

/** Runs one processor for as long as this instance holds its lock; a standby instance waits to take over. */
export function startProcessor(
  deps: { db: Database; eventStore: EventStore; logger: Logger; lock: ExclusiveLock },
  processor: Processor,
  options: ProcessorOptions,
): RunningProcessor {
  let active = false;
  const standBy = (why: string) => {
    if (active) deps.logger.warn({ processor: processor.name }, `processor ${processor.name}: ${why}; standing by until it holds the lock again`);
    active = false;
  };
  const loop = startSupervisedLoop(
    `processor ${processor.name}`,
    deps.logger,
    async () => {
      // Proven before every round: a lock lost with its session may be another instance's by now.
      const holds = await deps.lock.acquire().catch((error: unknown) => {
        standBy('lost the connection holding its lock');
        throw error;
      });
      if (!holds) {
        standBy('lost its lock');
        return options.standbyRetryMs;
      }
      if (!active) deps.logger.info({ processor: processor.name }, `processor ${processor.name} active`);
      active = true;
      const read = await processBatch(deps, processor, options.batchSize);
      return read === options.batchSize ? 0 : options.pollIntervalMs;
    },
    {
      backoff: options.backoff,
      onStop: () => {
        active = false;
        return deps.lock.release();
      },
    },
  );
  return { ...loop, isActive: () => active };
}
