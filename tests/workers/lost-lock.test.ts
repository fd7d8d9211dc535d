import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import type { EventStore, RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../../src/infra/logger.js';
import { createAdvisoryLock } from '../../src/workers/advisory-lock.js';
import type { Processor } from '../../src/workers/processor.js';
import { startProcessor } from '../../src/workers/start-processor.js';
import type { RunningLoop } from '../../src/workers/supervised-loop.js';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { logSettled, waitFor } from './worker-test-kit.js';

const options = { batchSize: 100, pollIntervalMs: 20, standbyRetryMs: 50, backoff: { initialMs: 50, maxMs: 200 } };

function recorder(name: string) {
  const seen: number[] = [];
  const processor: Processor = {
    name,
    mode: 'at-least-once',
    async handle(event: RecordedEvent) {
      seen.push(Number(event.data.n));
    },
  };
  return { seen, processor };
}

describe('a worker that loses the session holding its lock (PostgreSQL only)', () => {
  let database: TestDatabase;
  let eventStore: EventStore;
  let relay: TcpRelay;
  const loops: RunningLoop[] = [];

  const append = async (n: number) => {
    await eventStore.appendToStream('lock-test', [{ type: 'Noted', data: { n } }], 'any');
    await logSettled(database.db, eventStore);
  };
  /** Terminates the server sessions that came through the relay (the first instance's lock). */
  const terminateRelayedSessions = async () => {
    const { rows } = await sql<{ pid: number }>`
      select pid from pg_stat_activity where datname = current_database() and client_port = any(${relay.upstreamPorts()}::int[])`.execute(database.db);
    await sql`select pg_terminate_backend(pid) from unnest(${rows.map((r) => r.pid)}::int[]) pid`.execute(database.db);
    return rows.length;
  };

  beforeEach(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
    relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port });
  });
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
    await relay?.close();
    await database?.destroy();
  });

  it('stops acting when its session silently goes away, while another instance takes over: never two at once', async function () {
    this.timeout(30_000);
    const logger = createLogger('silent');
    const first = recorder('guarded');
    // The first instance holds its lock through the relay; its queries go straight to the server.
    const firstLock = createAdvisoryLock({ ...database.config!, host: '127.0.0.1', port: relay.port }, 'guarded');
    loops.push(startProcessor({ db: database.db, eventStore, logger, lock: firstLock }, first.processor, options));
    await append(1);
    await waitFor(() => first.seen.includes(1), { what: 'the first instance to handle event 1' });

    // A partition: the relay forwards nothing more and the server ends the session behind it.
    relay.freeze();
    expect(await terminateRelayedSessions()).to.equal(1);
    const second = recorder('guarded');
    loops.push(startProcessor({ db: database.db, eventStore, logger, lock: createAdvisoryLock(database.config!, 'guarded') }, second.processor, options));
    await append(2);
    await waitFor(() => second.seen.includes(2), { what: 'the second instance to take over' });
    // Past the first instance's session timeout: it has noticed, and stands by.
    await sleep(6_000);
    await append(3);
    await waitFor(() => second.seen.includes(3), { what: 'the second instance to handle event 3' });
    await sleep(300);
    expect(first.seen).to.deep.equal([1]);
  });

  it('frees the lock with a terminated session and takes it again once it is free', async () => {
    const lockA = createAdvisoryLock({ ...database.config!, host: '127.0.0.1', port: relay.port }, 'retaken');
    const lockB = createAdvisoryLock(database.config!, 'retaken');
    expect(await lockA.acquire()).to.equal(true);
    expect(await lockB.acquire()).to.equal(false);
    await terminateRelayedSessions();
    await waitFor(() => lockB.acquire(), { what: 'the second lock to be taken' });
    expect(await lockA.acquire().catch(() => false)).to.equal(false);
    expect(await lockA.acquire()).to.equal(false);
    await lockB.release();
    expect(await lockA.acquire()).to.equal(true);
    await lockA.release();
  });
});
