/**
 * Every PostgreSQL advisory-lock key of the service, in one place: two locks that must exclude each
 * other take the same key, and two that must not never share one. Each key is a text PostgreSQL
 * hashes (hashtext or hashtextextended). The keys built in SQL (src/infra/db/functions/lock-keys.sql)
 * start with the prefixes below, and name the constant; tests/architecture/lock-keys checks each.
 */

/** The turn of the appends that carry work in a PostgreSQL transaction on another store (EventStoreDB). */
export const appendsInPostgresTransactionsKey = 'workspace-booking:appends-in-postgres-transactions';

/** A worker's session lock: one process runs it at a time (`name` is the worker's). */
export const workerLockKey = (name: string) => `workspace-booking:${name}`;

/** The changes to one workspace's zone tree take turns, so two re-parentings cannot close a cycle together. */
export const zoneTreeLockKey = (workspace: string) => `zones:${workspace}`;

/** A booker's quota-bound appends take turns (commands/placement/quota-hold.ts; in SQL, quota_lock_key). */
export const quotaLockKeyPrefix = 'workspace-booking:quota:';
export const quotaLockKey = (workspace: string, booker: string) => `${quotaLockKeyPrefix}${workspace}:${booker}`;

/** A blackout create (exclusive) against booking appends (shared), per workspace: in SQL only, blackout_lock_key. */
export const blackoutLockKeyPrefix = 'workspace-booking:blackouts:';

/** The appends that place a booking on a pool take turns per resource: in SQL only, pool_lock_key. */
export const poolLockKeyPrefix = 'workspace-booking:pool:';

/** The appends that place a booking, and the changes of parts, take turns per resource they occupy: in SQL, occupation_lock_key. */
export const occupationLockKeyPrefix = 'workspace-booking:occupation:';

/** One notifying commit at a time per channel: in SQL only, notify_lock_key. */
export const notifyLockKeyPrefix = 'workspace-booking:notify:';

/** One start at a time applies the database's functions (database-functions.ts). */
export const databaseFunctionsLockKey = 'workspace-booking:database-functions';
