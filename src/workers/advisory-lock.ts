import pg from 'pg';
import type { DatabaseConfig } from '../infra/config.js';
import type { ExclusiveLock } from './exclusive-lock.js';

/**
 * A session-level advisory lock on a connection of its own (outside the pool): it is held as long
 * as that connection lives, and freed by PostgreSQL when the process dies.
 */
export function createAdvisoryLock(config: Extract<DatabaseConfig, { kind: 'postgres' }>, name: string): ExclusiveLock {
  const key = `workspace-booking:${name}`;
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

  return {
    async acquire() {
      if (held && client) return true;
      if (!client) {
        const next = new pg.Client({
          host: config.host,
          port: config.port,
          user: config.user,
          password: config.password,
          database: config.database,
          keepAlive: true,
          connectionTimeoutMillis: 5_000,
        });
        next.on('error', () => forget(next));
        next.on('end', () => forget(next));
        await next.connect();
        client = next;
      }
      try {
        const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [key]);
        held = rows[0]?.locked === true;
        return held;
      } catch (error) {
        await release();
        throw error;
      }
    },
    release,
  };
}
