import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import type { Logger } from '../../../src/infra/logger.js';
import { createDatabase, pingDatabase, poolOf, type Database } from '../../../src/infra/db/database.js';
import { isDatabaseUnavailable } from '../../../src/infra/db/database-unavailable.js';
import { DatabaseUnreachableError, waitForDatabase } from '../../../src/infra/db/wait-for-database.js';
import { startTcpRelay, type TcpRelay } from '../../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** A logger that keeps the messages of warn and info. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (_fields: unknown, message?: string) => void lines.push(message ?? String(_fields));
  return { lines, warn: record, info: record, error: record, debug: record } as unknown as Logger & { lines: string[] };
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('losing the database connection (PostgreSQL only)', () => {
  let database: TestDatabase;
  let relay: TcpRelay;
  let db: Database;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port });
    db = createDatabase({ ...database.config!, host: '127.0.0.1', port: relay.port, poolSize: 4 });
  });
  after(async () => {
    await db?.destroy();
    await relay?.close();
    await database?.destroy();
  });

  it('does not crash when a client checked out for a transaction loses its server; the pool replaces it', async () => {
    const error = await failureOf(
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        // The client is checked out and idle between two queries when its connection goes.
        await relay.cutAndRefuse();
        await sleep(100);
        await sql`select 2`.execute(trx);
      }),
    );
    expect(isDatabaseUnavailable(error), String(error)).to.equal(true);
    expect(isDatabaseUnavailable(await failureOf(pingDatabase(db)))).to.equal(true);
    await relay.accept();
    await pingDatabase(db);
    expect(poolOf(db)!.totalCount).to.be.at.least(1);
  });

  it('reports a query whose backend is terminated as unavailable, and answers the next query', async () => {
    const failed = failureOf(sql`select pg_sleep(5)`.execute(db));
    await sleep(200);
    const { rows } = await sql<{ n: number }>`
      select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where datname = current_database() and query like 'select pg_sleep%' and pid <> pg_backend_pid()`.execute(database.db);
    expect(rows[0]!.n).to.equal(1);
    const error = await failed;
    expect(error).to.have.property('code', '57P01');
    expect(isDatabaseUnavailable(error)).to.equal(true);
    // The client goes back to the pool before its socket closes; the pool drops it when it does.
    await sleep(100);
    await pingDatabase(db);
  });

  it('at start-up, waits for the database with backoff, logging each try, until it answers', async function () {
    this.timeout(20_000);
    await relay.cutAndRefuse();
    const logger = recordingLogger();
    setTimeout(() => void relay.accept(), 1_500);
    await waitForDatabase(db, { timeoutSeconds: 10, where: 'relay', logger });
    const tries = logger.lines.filter((line) => /unreachable \(try \d+\); retrying/.test(line));
    expect(tries.length).to.be.within(2, 6);
    expect(logger.lines.at(-1)).to.equal('database reachable');
  });

  it('gives up after DB_CONNECT_TIMEOUT_SECONDS with a clear message', async function () {
    this.timeout(20_000);
    await relay.cutAndRefuse();
    const logger = recordingLogger();
    const started = Date.now();
    const error = await failureOf(waitForDatabase(db, { timeoutSeconds: 1, where: '127.0.0.1:1/x', logger }));
    expect(error).to.be.instanceOf(DatabaseUnreachableError);
    expect((error as Error).message).to.match(/^the database at 127\.0\.0\.1:1\/x did not answer within DB_CONNECT_TIMEOUT_SECONDS=1 \(\d+ tries; last: ECONNREFUSED/);
    expect(Date.now() - started).to.be.within(900, 3_000);
    await relay.accept();
  });
});
