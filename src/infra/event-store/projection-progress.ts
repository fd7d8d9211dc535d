import { sql } from 'kysely';
import { DomainError } from '../../domain/domain-error.js';
import type { Executor } from '../db/database.js';
import { isAtOrAfter, logStart, type LogPosition } from './event-store.js';

/** The checkpoint of the projections that follow the log (PROJECTIONS=async). */
export const projectionsCheckpoint = 'projections';

/** While a wait lasts: how often the checkpoint is read again and the runner asked to go on. */
const recheckMs = 25;

export type ProjectionProgress = {
  /** Resolves once the projections have passed `position`; a 503 after the bound. */
  waitFor(position: LogPosition): Promise<void>;
  /** The projections committed up to `position` (told by the runner of this process). */
  advanced(position: LogPosition): void;
  /**
   * The checkpoint moved in another process: to the position `transactionId:globalPosition` the
   * notification carries, or, without one, to wherever it is read again (when someone waits).
   */
  notified(payload: string): void;
};

/** Where the projections' checkpoint stands, as `db` (a transaction, maybe) sees it. */
export async function readProjectionsCheckpoint(db: Executor): Promise<LogPosition> {
  const row = await db
    .selectFrom('processor_checkpoints')
    .select([sql<string>`transaction_id::text`.as('transaction_id'), 'global_position'])
    .where('name', '=', projectionsCheckpoint)
    .executeTakeFirst();
  return row ? { transactionId: row.transaction_id, globalPosition: Number(row.global_position) } : logStart;
}

type Waiter = { position: LogPosition; resolve: () => void };

/**
 * Where the read models stand in the log, as known to this process. A wait that the last known
 * checkpoint does not already answer wakes the runner of this process, then, every few milliseconds
 * until the checkpoint is passed, asks the runners of every process and reads the checkpoint: a
 * notification lost to the commit listener's coalescing, or a round of the runner that stopped at
 * the late-commit horizon, costs a recheck, never the whole bound.
 */
export function createProjectionProgress(
  db: Executor,
  options: {
    timeoutMs: number;
    /** Asks the runner to go on: the one of this process, and with `everywhere` those of the others. */
    wantProjection: (everywhere: boolean) => void;
  },
): ProjectionProgress {
  let known: LogPosition = logStart;
  const waiters = new Set<Waiter>();
  let checking: Promise<void> | undefined;
  let rechecking = false;

  const advanced = (position: LogPosition) => {
    if (!isAtOrAfter(position, known)) return;
    known = position;
    for (const waiter of waiters) {
      if (isAtOrAfter(known, waiter.position)) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const readCheckpoint = async () => advanced(await readProjectionsCheckpoint(db));

  /** One reader of the checkpoint at a time, however many wait. */
  const check = () => {
    checking ??= readCheckpoint()
      .catch(() => undefined)
      .finally(() => {
        checking = undefined;
      });
    return checking;
  };

  const recheckWhileWaiting = async () => {
    if (rechecking) return;
    rechecking = true;
    try {
      while (waiters.size > 0) {
        await new Promise((resolve) => setTimeout(resolve, recheckMs));
        if (waiters.size === 0) return;
        options.wantProjection(true);
        await check();
      }
    } finally {
      rechecking = false;
    }
  };

  return {
    async waitFor(position) {
      if (isAtOrAfter(known, position)) return;
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = { position, resolve: () => undefined };
      const passed = new Promise<void>((resolve) => {
        waiter.resolve = resolve;
      });
      waiters.add(waiter);
      options.wantProjection(false);
      void check();
      void recheckWhileWaiting();
      try {
        await Promise.race([
          passed,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new DomainError('dependency_unavailable', `the read models have not caught up with the log within ${options.timeoutMs} ms; try again`)),
              options.timeoutMs,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
        waiters.delete(waiter);
      }
    },
    advanced,
    notified(payload) {
      const [transactionId, globalPosition] = payload.split(':');
      if (transactionId && /^\d+$/.test(transactionId) && globalPosition && /^\d+$/.test(globalPosition)) {
        advanced({ transactionId, globalPosition: Number(globalPosition) });
      } else if (waiters.size > 0) void check();
    },
  };
}
