import { setTimeout as sleep } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../infra/db/database-unavailable.js';
import type { Backoff } from './supervised-loop.js';

/**
 * Runs `statement` until it succeeds, trying again with backoff (capped at 1 s, so that a database
 * that comes back finds it at once) for as long as the database is unreachable. Any other error,
 * or a stop, ends it with that error.
 */
export async function retryWhileUnavailable<T>(statement: () => Promise<T>, backoff: Backoff, stopping: AbortSignal): Promise<T> {
  for (let failures = 1; ; failures++) {
    try {
      return await statement();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || stopping.aborted) throw error;
      const retryInMs = Math.min(1_000, backoff.maxMs, backoff.initialMs * 2 ** (failures - 1));
      await sleep(retryInMs, undefined, { signal: stopping }).catch(() => undefined);
      if (stopping.aborted) throw error;
    }
  }
}
