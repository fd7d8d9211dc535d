import { expect } from 'chai';
import pg from 'pg';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bookingBody, registerZone } from './booking/booking-api.js';

const replicaPort = Number(process.env.REPLICA_PORT || 0);

/** `hour`:`minute` UTC, `days` from today. */
const at = (days: number, hour: number, minute = 0) => {
  const day = new Date(Date.now() + days * 86_400_000);
  day.setUTCHours(hour, minute, 0, 0);
  return day.toISOString();
};

/** The service's count of reads served by `target` (contract §19). */
async function readsServedBy(server: TestServer, target: 'replica' | 'primary'): Promise<number> {
  const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
  const line = new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)$`, 'm').exec(metrics);
  return line ? Number(line[1]) : 0;
}

describe('writes answer a Consistency-Token (contract §19)', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.stop());

  it('on every answer to a write, accepted or refused, and reads accept it back', async () => {
    const zoneId = 'token-zone';
    await registerZone(server, zoneId);
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, at(3, 9), at(3, 10)) });
    const refused = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, at(3, 11), at(3, 10)) });
    expect(created.status).to.equal(201);
    expect(refused.status).to.equal(400);
    for (const answer of [created, refused]) expect(answer.headers.get('consistency-token')).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
    const read = await server.request('GET', `/booking/v1/bookings/${created.body.id}`, { headers: { 'Consistency-Token': created.headers.get('consistency-token')! } });
    expect(read.status).to.equal(200);
    expect(read.headers.get('consistency-token')).to.equal(null);
  });

  it('refuses a token it could not have sent with a 400 naming the header', async () => {
    const read = await server.request('GET', '/booking/v1/bookings', { headers: { 'Consistency-Token': 'yesterday' } });
    expect(read.status).to.equal(400);
    expect(JSON.stringify(read.body)).to.match(/consistency-token/i);
  });
});

(replicaPort && process.env.DB_HOST ? describe : describe.skip)(`reads from a streaming replica on port ${replicaPort || 'REPLICA_PORT (.ci/start-replica makes one)'}`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let relay: TcpRelay;
  let replica: pg.Client;
  let zoneId: string;
  let counter = 0;
  let replicaCut = false;

  const create = (slot: number) => server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, at(2 + Math.floor(slot / 24), slot % 24), at(2 + Math.floor(slot / 24), slot % 24, 30)) });
  const readWithToken = (id: string, token: string) => server.request('GET', `/booking/v1/bookings/${id}`, { headers: { 'Consistency-Token': token } });

  /** Reads until one is served by the replica (at most 10 s): how long that took. */
  const secondsUntilReadFromReplica = async () => {
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      const before = await readsServedBy(server, 'replica');
      expect((await server.request('GET', '/booking/v1/resources')).status).to.equal(200);
      if ((await readsServedBy(server, 'replica')) > before) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return (Date.now() - started) / 1000;
  };

  before(async () => {
    relay = await startTcpRelay({ host: '127.0.0.1', port: replicaPort });
    server = await startTestServer({ DB_READ_HOST: '127.0.0.1', DB_READ_PORT: String(relay.port), DB_READ_MAX_LAG_MS: '500' });
    // The test database was just created on the primary: the replica holds it once it replayed that far.
    for (const deadline = Date.now() + 30_000; ; ) {
      replica = new pg.Client({ host: '127.0.0.1', port: replicaPort, user: 'postgres', database: server.database.config!.database });
      try {
        await replica.connect();
        break;
      } catch (error) {
        await replica.end().catch(() => undefined);
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    zoneId = 'replica-zone';
    await registerZone(server, zoneId);
  });
  afterEach(async () => {
    if (replicaCut) await relay.accept();
    replicaCut = false;
    await replica.query('select pg_wal_replay_resume()');
  });
  after(async () => {
    await replica.end();
    await server.stop();
    await relay.close();
  });

  it('answers a read sent with the token of the write before it from the replica, never stale', async () => {
    const before = await readsServedBy(server, 'replica');
    for (let i = 0; i < 20; i++) {
      counter += 1;
      const created = await create(counter);
      const id = created.body.id ?? created.body.conflicts?.[0]?.bookingId;
      expect(created.status, JSON.stringify(created.body)).to.be.oneOf([201, 409]);
      if (created.status !== 201) continue;
      const read = await readWithToken(id, created.headers.get('consistency-token')!);
      expect(read.status).to.equal(200);
      expect(read.body.id).to.equal(id);
      const cancelled = await server.request('PATCH', `/booking/v1/bookings/${id}/cancel`, { body: { reason: 'moved' } });
      const after = await readWithToken(id, cancelled.headers.get('consistency-token')!);
      expect(after.body.status).to.equal('cancelled');
    }
    expect((await readsServedBy(server, 'replica')) - before).to.be.at.least(40);
  });

  it('waits at most two seconds for a replica that has not replayed the write, then reads the primary', async () => {
    await replica.query('select pg_wal_replay_pause()');
    const created = await create(100);
    expect(created.status).to.equal(201);
    const primaryBefore = await readsServedBy(server, 'primary');
    const started = Date.now();
    const read = await readWithToken(created.body.id, created.headers.get('consistency-token')!);
    const waited = Date.now() - started;
    expect(read.status).to.equal(200);
    expect(read.body.id).to.equal(created.body.id);
    expect(waited).to.be.within(1_900, 4_000);
    expect((await readsServedBy(server, 'primary')) - primaryBefore).to.equal(1);
  });

  it('skips a replica lagging beyond DB_READ_MAX_LAG_MS, and comes back to it once it caught up', async () => {
    await replica.query('select pg_wal_replay_pause()');
    await create(101);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const primaryBefore = await readsServedBy(server, 'primary');
    expect((await server.request('GET', '/booking/v1/resources')).status).to.equal(200);
    expect((await readsServedBy(server, 'primary')) - primaryBefore).to.equal(1);
    expect((await server.request('GET', '/booking/v1/health', { token: null })).body.info.readReplica.status).to.equal('behind');
    await replica.query('select pg_wal_replay_resume()');
    expect(await secondsUntilReadFromReplica()).to.be.below(10);
    const health = await server.request('GET', '/booking/v1/health', { token: null });
    expect(health.status).to.equal(200);
    expect(health.body.info.readReplica).to.include({ status: 'up' });
  });

  it('answers every read from the primary while the replica is down, and goes back to it when it returns', async () => {
    await relay.cutAndRefuse();
    replicaCut = true;
    const failures: number[] = [];
    for (let i = 0; i < 30; i++) {
      const read = await server.request('GET', '/booking/v1/resources');
      if (read.status !== 200) failures.push(read.status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(failures).to.deep.equal([]);
    // A poll that finds the replica gone says so at once; one stuck on it gives up within about a second.
    let health = await server.request('GET', '/booking/v1/health', { token: null });
    for (const deadline = Date.now() + 3_000; health.body.info.readReplica.status !== 'down' && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = await server.request('GET', '/booking/v1/health', { token: null });
    }
    expect(health.status).to.equal(200);
    expect(health.body.info.readReplica).to.deep.equal({ status: 'down' });
    const replicaBefore = await readsServedBy(server, 'replica');
    await server.request('GET', '/booking/v1/resources');
    expect(await readsServedBy(server, 'replica')).to.equal(replicaBefore);
    await relay.accept();
    replicaCut = false;
    expect(await secondsUntilReadFromReplica()).to.be.below(10);
  });
});
