import type pg from 'pg';
import { createSessionClient } from '../../src/infra/db/create-session-client.js';
import { serviceApplicationName } from '../../src/infra/db/service-application-name.js';
import type { PostgresConfig } from './scratch-database.js';

/**
 * A connected session of its own on the test database: named as the service's connections when it
 * stands for a service process appending (the log's horizon waits for those), or as somebody
 * else's (an operator's psql) otherwise.
 */
export function openSession(config: PostgresConfig, as: 'service' | 'operator'): Promise<pg.Client> {
  return createSessionClient(
    config,
    { applicationName: as === 'service' ? serviceApplicationName : 'psql', onLost: () => undefined },
  );
}
