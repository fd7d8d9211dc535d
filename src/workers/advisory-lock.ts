import type pg from 'pg';
import type { DatabaseConfig } from '../infra/config.js';
import { createSessionClient } from '../infra/db/create-session-client.js';
import { workerLockKey } from '../infra/db/lock-keys.js';
import type { ExclusiveLock } from './exclusive-lock.js';

/** How long the lock's session may take to answer before it counts as lost. */
const sessionTimeoutMs = 5_000;

/**
 * A session-level advisory lock on a connection of its own (outside the pool): it is held as long
 * as that connection lives, and freed by PostgreSQL when the process dies or the session is cut.
 * While held, every acquire() first proves the session still answers: a session lost to a restart
 * or a cut network has lost the lock with it (another instance may hold it by now), so this
 * instance stands by until it takes the lock again.
 */
export function createAdvisoryLock(config: Extract<DatabaseConfig, { kind: 'postgres' }>, name: string): ExclusiveLock {
  const key = workerLockKey(name);
  let client: pg.Client | undefined;
  let held = false;

  const forget = (lost: pg.Client) => {
    if (client !== lost) return;
    client = undefined;
    held = false;
  };

  const release = async () => {
    const current = client;
    client = undefined;
    held = false;
    await current?.end().catch(() => undefined);
  };

  const connect = () => createSessionClient(config, { queryTimeoutMs: sessionTimeoutMs, onLost: forget });

  return {
    async acquire() {
      const current = client ?? (client = await connect());
      try {
        if (held) {
          await current.query('select 1');
          // The session may have been lost while the query ran ('end' cleared the client).
          return held && client === current;
        }
        const { rows } = await current.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [key]);
        held = rows[0]?.locked === true && client === current;
        return held;
      } catch (error) {
        // A query that timed out leaves the socket open: it must not keep a session behind.
        forget(current);
        void current.end().catch(() => undefined);
        throw error;
      }
    },
    release,
  };
}
