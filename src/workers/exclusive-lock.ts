import type { Services } from '../services.js';
import { createAdvisoryLock } from './advisory-lock.js';
import { createInProcessLock } from './in-process-lock.js';

/** The right to be the one active instance of a worker. */
export type ExclusiveLock = {
  /** True while this instance holds the lock; takes it when it is free. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
};

/** An advisory lock on PostgreSQL (across processes); on the embedded database, which serves one process, a lock in memory. */
export function createExclusiveLock(services: Pick<Services, 'config' | 'db'>, name: string): ExclusiveLock {
  const { database } = services.config;
  return database.kind === 'postgres' ? createAdvisoryLock(database, name) : createInProcessLock(services.db, name);
}
