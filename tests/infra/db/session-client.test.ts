import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { createSessionClient } from '../../../src/infra/db/create-session-client.js';
import { freePort } from '../../support/free-port.js';
import { adminStatement, postgresServer, type PostgresConfig } from '../../support/scratch-database.js';
import { waitFor } from '../../workers/worker-test-kit.js';

describe('a database session of its own (PostgreSQL only)', () => {
  let config: PostgresConfig;
  before(function () {
    if (!postgresServer) this.skip();
    const { maintenanceDatabase, ...server } = postgresServer;
    config = { kind: 'postgres', ...server, database: maintenanceDatabase, poolSize: 1 };
  });

  it('reports a terminated session once, and the process carries on', async () => {
    const applicationName = `session-test-${randomUUID()}`;
    const lost: string[] = [];
    const client = await createSessionClient(config, { applicationName, onLost: (_, error) => lost.push(error.message) });
    expect((await client.query('select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
    await adminStatement(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = '${applicationName}'`);
    await waitFor(() => lost.length > 0, { what: 'the lost session to be reported' });
    await sleep(100);
    expect(lost).to.have.length(1);
    const failed = await client.query('select 1').then(
      () => null,
      (error: Error) => error,
    );
    expect(failed).to.be.instanceOf(Error);
  });

  it('rejects a session it cannot open, reporting nothing lost', async () => {
    const lost: Error[] = [];
    const opened = createSessionClient({ ...config, host: '127.0.0.1', port: await freePort() }, { onLost: (_, error) => lost.push(error) });
    const failed = await opened.then(
      () => null,
      (error: Error) => error,
    );
    expect(failed).to.be.instanceOf(Error);
    await sleep(100);
    expect(lost).to.deep.equal([]);
  });

  it('reports the session its owner ends', async () => {
    const lost: Error[] = [];
    const client = await createSessionClient(config, { onLost: (_, error) => lost.push(error) });
    await client.end();
    await waitFor(() => lost.length === 1, { what: 'the ended session to be reported' });
  });
});
