import { sql, type Transaction } from 'kysely';
import type { Config } from '../../infra/config.js';
import type { Database } from '../../infra/db/database.js';
import type { DB } from '../../infra/db/schema.js';
import type { EventStore } from '../../infra/event-store/event-store.js';
import { createProjectionProgress } from '../../infra/event-store/projection-progress.js';
import { waitingForProjections } from '../../infra/event-store/wait-for-projections.js';
import type { Logger } from '../../infra/logger.js';
import type { Projector } from '../../projections/projector.js';
import { startCommitListener } from '../commit-listener.js';
import { createExclusiveLock } from '../create-exclusive-lock.js';
import { processBatch } from '../process-batch.js';
import { startSupervisedLoop } from '../supervised-loop.js';
import { workerOptionsFor } from '../worker-options.js';
import { projectionsProcessor } from './projections-processor.js';

export type AsyncProjections = {
  /** The store to hand to commands: it waits for the projections (read-your-writes). */
  eventStore: EventStore<Transaction<DB>>;
  /** Whether this process holds the runner's lock now (health). */
  isActive(): boolean;
  stop(): Promise<void>;
};

/**
 * Runs `projectors` from the log after each commit (PROJECTIONS=async). Every process runs the
 * runner; an exclusive lock keeps one active and the others standing by to take over. The active
 * one is woken by its own process's commands, by the commit listener on every append of any
 * process, and by commands of other processes that wait for it.
 */
export function startAsyncProjections(
  deps: { config: Config; db: Database; logger: Logger },
  store: EventStore<Transaction<DB>>,
  projectors: readonly Projector[],
): AsyncProjections {
  const { config, db, logger } = deps;
  const options = workerOptionsFor(config);
  const onPostgres = config.database.kind === 'postgres';
  // A PostgreSQL log kept its read models inline until now: the runner starts at its end. Read
  // models over EventStoreDB were never written from anything else: they start at `$all`'s start.
  const firstPosition = config.eventStore === 'postgres' ? 'log-end' : 'log-start';
  const processor = projectionsProcessor(projectors, { notify: onPostgres, firstPosition });
  const lock = createExclusiveLock(deps, processor.name);

  const progress = createProjectionProgress(db, {
    timeoutMs: config.projectionWaitMs,
    wantProjection: (everywhere) => {
      runner.wake();
      if (everywhere && onPostgres) void sql`select pg_notify('projections_wanted', '')`.execute(db).catch(() => undefined);
    },
  });

  let active = false;
  const runner = startSupervisedLoop(
    'projections',
    logger,
    async () => {
      if (!(await lock.acquire())) {
        if (active) logger.warn('projections: lost the lock; standing by');
        active = false;
        return options.standbyRetryMs;
      }
      if (!active) logger.info('projections active');
      active = true;
      let read: number;
      try {
        read = await processBatch({ db, eventStore: store }, processor, options.batchSize);
      } catch (error) {
        processor.takeReached();
        throw error;
      }
      const reached = processor.takeReached();
      if (reached) progress.advanced(reached);
      return read === options.batchSize ? 0 : options.pollIntervalMs;
    },
    {
      backoff: options.backoff,
      onStop: () => {
        active = false;
        return lock.release();
      },
    },
  );

  const listener = startCommitListener(
    config.database,
    logger,
    { events_appended: [runner.wake], projections_wanted: [runner.wake], projections_advanced: [progress.notified] },
    options.backoff,
  );

  return {
    eventStore: waitingForProjections(store, progress),
    isActive: () => active,
    async stop() {
      await listener.stop();
      await runner.stop();
    },
  };
}
