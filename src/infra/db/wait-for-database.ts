import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import { pingDatabase, type Database } from './database.js';
import { isDatabaseUnavailable } from './database-unavailable.js';

export class DatabaseUnreachableError extends Error {}

const firstPauseMs = 250;
const maxPauseMs = 5_000;

/** A refused connection to a host with several addresses is an AggregateError with no message. */
function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string' && part !== '').join(': ') || String(error);
}

/**
 * Start-up: tries the database until it answers, pausing 0.25 s, 0.5 s, … up to 5 s between tries
 * and logging each, for `timeoutSeconds` at most; then throws DatabaseUnreachableError. An error
 * that waiting cannot mend (a wrong password, no such database) is thrown at once.
 */
export async function waitForDatabase(db: Database, options: { timeoutSeconds: number; where: string; logger: Logger }): Promise<void> {
  const { timeoutSeconds, where, logger } = options;
  const deadline = Date.now() + timeoutSeconds * 1_000;
  for (let attempt = 1; ; attempt++) {
    try {
      await pingDatabase(db);
      if (attempt > 1) logger.info({ database: where, attempt }, 'database reachable');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      const reason = reasonOf(error);
      const leftMs = deadline - Date.now();
      if (leftMs <= 0) {
        throw new DatabaseUnreachableError(
          `the database at ${where} did not answer within DB_CONNECT_TIMEOUT_SECONDS=${timeoutSeconds} (${attempt} tries; last: ${reason})`,
        );
      }
      const pauseMs = Math.min(maxPauseMs, firstPauseMs * 2 ** (attempt - 1), leftMs);
      logger.warn({ database: where, attempt, retryInMs: pauseMs, reason }, `database at ${where} unreachable (try ${attempt}); retrying`);
      await sleep(pauseMs);
    }
  }
}
