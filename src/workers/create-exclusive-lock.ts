import type { Services } from '../services.js';
import { createAdvisoryLock } from './advisory-lock.js';
import type { ExclusiveLock } from './exclusive-lock.js';
import { createInProcessLock } from './in-process-lock.js';

/** An advisory lock on PostgreSQL (across processes); on the embedded database, which serves one process, a lock in memory. */
export function createExclusiveLock(services: Pick<Services, 'config' | 'db'>, name: string): ExclusiveLock {
  const { database } = services.config;
  return database.kind === 'postgres' ? createAdvisoryLock(database, name) : createInProcessLock(services.db, name);
}
