import type { Temporal } from 'temporal-polyfill';
import type { ProcessorLag } from './processor-lag.js';

/** `active`: this process runs the processor now (false: another process or node holds its lock). */
export type ProcessorStatus = { position: number; lagEvents: number; active: boolean };

/** The `info.workers` part of the health body (contract §12). */
export type WorkersStatus = { status: 'up' | 'down'; processors: Record<string, ProcessorStatus> };

/** The processors this process runs, and whether they keep up. */
export type WorkerStatusBoard = {
  /**
   * Registers a processor this process runs (startWorkers; the async projections' runner), active
   * or standing by: `isActive` tells whether this process holds its lock now.
   */
  track(name: string, isActive: () => boolean): void;
  /** Undefined while this process runs no processor; reads the checkpoints otherwise. */
  status(): Promise<WorkersStatus | undefined>;
};

/** A processor behind the log whose position has not moved for this long is down. */
const stalledAfterMs = 60_000;

/**
 * Reads each tracked processor's checkpoint and lag. A processor is down when it is behind and
 * its position has not moved since an earlier look at least `stalledAfterMs` ago (on the
 * services' clock), whichever instance holds its lock: the checkpoint is shared.
 */
export function createWorkerStatusBoard(readLags: () => Promise<ProcessorLag[]>, now: () => Temporal.Instant): WorkerStatusBoard {
  const tracked = new Map<string, () => boolean>();
  /** Per processor: the position last seen while behind, and since when it stands there. */
  const behind = new Map<string, { position: number; sinceMs: number }>();

  const isStalled = (name: string, { position, lagEvents }: ProcessorStatus, nowMs: number) => {
    if (lagEvents === 0) {
      behind.delete(name);
      return false;
    }
    const seen = behind.get(name);
    if (!seen || seen.position !== position) {
      behind.set(name, { position, sinceMs: nowMs });
      return false;
    }
    return nowMs - seen.sinceMs >= stalledAfterMs;
  };

  return {
    track: (name, isActive) => void tracked.set(name, isActive),
    async status() {
      if (tracked.size === 0) return undefined;
      const lags = new Map((await readLags()).map((lag) => [lag.name, lag]));
      const nowMs = now().epochMilliseconds;
      const processors: Record<string, ProcessorStatus> = {};
      let down = false;
      for (const [name, isActive] of [...tracked].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        // A processor that has not run its first round yet has no checkpoint: it starts at the log's beginning.
        const lag = lags.get(name);
        const status = { position: lag?.position ?? 0, lagEvents: lag?.lagEvents ?? 0, active: isActive() };
        processors[name] = status;
        if (isStalled(name, status, nowMs)) down = true;
      }
      return { status: down ? 'down' : 'up', processors };
    },
  };
}
