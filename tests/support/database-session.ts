import pg from 'pg';
import { serviceApplicationName } from '../../src/infra/db/service-application-name.js';
import type { PostgresConfig } from './scratch-database.js';

/**
 * A connected session of its own on the test database: named as the service's connections when it
 * stands for a service process appending (the log's horizon waits for those), or as somebody
 * else's (an operator's psql) otherwise.
 */
export async function openSession(config: PostgresConfig, as: 'service' | 'operator'): Promise<pg.Client> {
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    user: config.user,
    password: config.password,
    database: config.database,
    application_name: as === 'service' ? serviceApplicationName : 'psql',
  });
  await client.connect();
  return client;
}
