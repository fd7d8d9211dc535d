import { isDatabaseUnavailable } from '../infra/db/database-unavailable.js';
import type { Logger } from '../infra/logger.js';

const databaseRetryMaxMs = 5_000;

export type Backoff = { initialMs: number; maxMs: number };

/**
 * One round of a worker; answers how long to pause before the next (0: more work is waiting).
 * `stopping` aborts when the loop is asked to stop, for work that may take long.
 */
export type LoopStep = (stopping: AbortSignal) => Promise<number>;

export type RunningLoop = {
  /** Cuts the current pause short; during a round, the pause after it is skipped. */
  wake(): void;
  /** Lets the round in flight finish, then ends the loop. */
  stop(): Promise<void>;
};

/**
 * Runs `step` round after round until stopped. A failing round is logged and retried after a
 * pause that doubles up to `backoff.maxMs`: the loop never dies of an error.
 */
export function startSupervisedLoop(
  name: string,
  logger: Logger,
  step: LoopStep,
  options: { backoff: Backoff; onStop?: () => Promise<void> },
): RunningLoop {
  const stopping = new AbortController();
  let cutPause: (() => void) | undefined;
  // A wake during a round may announce work the round has already passed over.
  let wokenDuringRound = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        cutPause = undefined;
        resolve();
      }
      cutPause = done;
    });

  const run = async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        wokenDuringRound = false;
        const pauseMs = await step(stopping.signal);
        failures = 0;
        if (pauseMs > 0 && !wokenDuringRound && !stopping.signal.aborted) await pause(pauseMs);
      } catch (error) {
        failures += 1;
        // A database that comes back should find every worker at it again within seconds.
        const maxMs = isDatabaseUnavailable(error) ? Math.min(options.backoff.maxMs, databaseRetryMaxMs) : options.backoff.maxMs;
        const retryInMs = Math.min(maxMs, options.backoff.initialMs * 2 ** (failures - 1));
        logger.error({ err: error, worker: name, failures, retryInMs }, `${name} failed; retrying`);
        if (!stopping.signal.aborted) await pause(retryInMs);
      }
    }
    try {
      await options.onStop?.();
    } catch (error) {
      logger.warn({ err: error, worker: name }, `${name} did not stop cleanly`);
    }
  };
  const finished = run();

  return {
    wake: () => {
      if (cutPause) cutPause();
      else wokenDuringRound = true;
    },
    async stop() {
      stopping.abort();
      cutPause?.();
      await finished;
    },
  };
}
