import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { openSession } from '../../support/database-session.js';
import { startFakeDeviceService, type FakeDeviceService } from '../../support/fake-device-service.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { platformKey } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

const bookings = '/booking/v1/bookings';

describe('Idempotency-Key (contract §18)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let zone = 0;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
  });
  after(() => server.stop());

  const freshZone = async () => {
    zone += 1;
    const zoneId = `zone-i${zone}`;
    return { zoneId, id: await registerZone(server, zoneId) };
  };
  const post = (body: unknown, key: string, token?: string) => server.request('POST', bookings, { body, token, headers: { 'idempotency-key': key } });
  const bookingsOf = (resourceUuid: string) => server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', resourceUuid).execute();

  describe('a repeated request', () => {
    it('answers the kept status and body with Idempotent-Replayed: true, and books once', async () => {
      const { zoneId, id } = await freshZone();
      const body = bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z');
      const first = await post(body, 'create-1');
      expect(first.status).to.equal(201);
      expect(first.headers.get('idempotent-replayed')).to.equal(null);
      const again = await post(body, 'create-1');
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.headers.get('content-type')).to.match(/^application\/json/);
      expect(again.body).to.deep.equal(first.body);
      expect(await bookingsOf(id)).to.have.length(1);
    });

    it('is the same request whatever the order of its body members or its whitespace', async () => {
      const { zoneId, id } = await freshZone();
      const body = bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z');
      const first = await post(body, 'reordered');
      const reordered = Object.fromEntries(Object.entries(body).reverse());
      const again = await post(JSON.stringify(reordered, null, 2), 'reordered');
      expect([first.status, again.status]).to.deep.equal([201, 201]);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
      expect(await bookingsOf(id)).to.have.length(1);
    });

    it('replays a 4xx answer too, even after the cause went away', async () => {
      const zoneId = `zone-later-${randomUUID()}`;
      const body = bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z');
      const first = await post(body, 'not-yet');
      expect(first.status).to.equal(404);
      await registerZone(server, zoneId);
      const again = await post(body, 'not-yet');
      expect(again.status).to.equal(404);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
      const fresh = await post(body, 'another-key');
      expect(fresh.status).to.equal(201);
    });

    it('replays a PATCH', async () => {
      const { zoneId } = await freshZone();
      const created = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), randomUUID());
      const path = `${bookings}/${created.body.id}/cancel`;
      const cancel = () => server.request('PATCH', path, { body: { reason: 'moved' }, headers: { 'idempotency-key': 'cancel-1' } });
      const first = await cancel();
      expect(first.status).to.equal(200);
      const again = await cancel();
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
    });

    it('without a key runs again (no key, no replay)', async () => {
      const { zoneId } = await freshZone();
      const body = bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z');
      expect((await server.request('POST', bookings, { body })).status).to.equal(201);
      expect((await server.request('POST', bookings, { body })).status).to.equal(409);
    });

    it('runs afresh once the kept answer is older than 24 hours', async () => {
      const { zoneId, id } = await freshZone();
      setClock(server, '2027-01-04T08:00:00Z');
      const first = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), 'a-day');
      expect(first.status).to.equal(201);
      setClock(server, '2027-01-05T08:00:01Z');
      try {
        const other = await post(bookingBody(zoneId, '2027-01-10T11:00:00Z', '2027-01-10T12:00:00Z'), 'a-day');
        expect(other.status, JSON.stringify(other.body)).to.equal(201);
        expect(other.headers.get('idempotent-replayed')).to.equal(null);
        expect(await bookingsOf(id)).to.have.length(2);
      } finally {
        setClock(server, '2027-01-04T08:00:00Z');
      }
    });
  });

  describe('a key used for another request', () => {
    it('answers 422 idempotency_key_reused for another body, path or method, and changes nothing', async () => {
      const { zoneId, id } = await freshZone();
      const first = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), 'reused');
      expect(first.status).to.equal(201);
      const otherBody = await post(bookingBody(zoneId, '2027-01-10T11:00:00Z', '2027-01-10T12:00:00Z'), 'reused');
      expect(otherBody.status).to.equal(422);
      expect(otherBody.body).to.include({ statusCode: 422, reason: 'idempotency_key_reused' });
      expect(otherBody.body.message).to.be.a('string');
      const otherPath = await server.request('PATCH', `${bookings}/${first.body.id}/cancel`, { body: { reason: 'x' }, headers: { 'idempotency-key': 'reused' } });
      expect(otherPath.status).to.equal(422);
      expect(otherPath.body.reason).to.equal('idempotency_key_reused');
      expect(await bookingsOf(id)).to.have.length(1);
      expect((await server.request('GET', `${bookings}/${first.body.id}`)).body.status).to.equal('confirmed');
    });
  });

  describe('keys of different callers', () => {
    it('are independent: the same key of two users books twice, in two workspaces too', async () => {
      const { zoneId, id } = await freshZone();
      const alice = server.token({ level: 'LV4', sub: 'alice' });
      const bob = server.token({ level: 'LV4', sub: 'bob' });
      const a = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), 'shared', alice);
      const b = await post(bookingBody(zoneId, '2027-01-10T11:00:00Z', '2027-01-10T12:00:00Z'), 'shared', bob);
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(b.headers.get('idempotent-replayed')).to.equal(null);
      expect(await bookingsOf(id)).to.have.length(2);
      const elsewhere = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), 'shared', server.token({ level: 'LV4', sub: 'alice', workspace: randomUUID() }));
      expect(elsewhere.status).to.equal(404);
      expect(elsewhere.headers.get('idempotent-replayed')).to.equal(null);
    });
  });

  describe('a malformed key', () => {
    const bad: [string, string][] = [
      ['empty', ''],
      ['256 characters long', 'k'.repeat(256)],
      ['with a tab', 'a\tb'],
      ['with a character beyond ASCII', 'clé'],
    ];
    for (const [label, key] of bad) {
      it(`answers 400 when ${label}, and books nothing`, async () => {
        const { zoneId, id } = await freshZone();
        const res = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), key);
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
        expect(res.body.message).to.be.a('string');
        expect(await bookingsOf(id)).to.have.length(0);
      });
    }

    it('takes 255 printable characters, spaces and symbols included', async () => {
      const { zoneId } = await freshZone();
      const key = ` !"#$%&'()*+,-./09:;<=>?@AZ[\\]^_\`az{|}~${'x'.repeat(216)}`;
      expect(key).to.have.length(255);
      const first = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), `${key}`);
      const again = await post(bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z'), `${key}`);
      expect([first.status, again.status]).to.deep.equal([201, 201]);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
    });
  });

  describe('a request that is still running', function () {
    before(function () {
      if (!server.database.isServer) this.skip();
    });

    it('answers 409 idempotency_key_in_flight to a repeat, then the first answer is kept', async () => {
      const { zoneId, id } = await freshZone();
      const body = bookingBody(zoneId, '2027-01-10T09:00:00Z', '2027-01-10T10:00:00Z');
      // Holds every append: the first request claims its key, then waits at its append.
      const session = await openSession(server.database.config!, 'operator');
      try {
        await session.query('begin');
        await session.query('lock table streams in exclusive mode');
        const first = post(body, 'slow');
        await waitForInFlight(server, 'slow');
        const repeat = await post(body, 'slow');
        expect(repeat.status).to.equal(409);
        expect(repeat.body).to.include({ statusCode: 409, reason: 'idempotency_key_in_flight' });
        await session.query('commit');
        const answered = await first;
        expect(answered.status).to.equal(201);
        const after = await post(body, 'slow');
        expect(after.status).to.equal(201);
        expect(after.headers.get('idempotent-replayed')).to.equal('true');
        expect(after.body.id).to.equal(answered.body.id);
        expect(await bookingsOf(id)).to.have.length(1);
      } finally {
        await session.query('rollback').catch(() => undefined);
        await session.end();
      }
    });
  });
});

describe('Idempotency-Key and a 5xx answer', function () {
  this.timeout(60_000);
  let devices: FakeDeviceService;
  let server: TestServer;

  before(async () => {
    devices = await startFakeDeviceService();
    server = await startTestServer({ PLATFORM_DEVICE_SERVICE_URL: devices.url });
    devices.records.set('/device/v1/zones/zone-up', { id: 'zone-up', name: 'Up', workspace: server.workspace });
  });
  after(async () => {
    await server?.stop();
    await devices?.close();
  });

  it('keeps nothing: the repeat runs again, and the key is free for another request', async () => {
    const register = (resourceId: string) => server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId }, headers: { 'idempotency-key': 'dependency-down' } });
    const first = await register('boom-1');
    expect(first.status).to.equal(503);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const again = await register('boom-1');
    expect(again.status).to.equal(503);
    expect(again.headers.get('idempotent-replayed')).to.equal(null);
    const kept = await server.database.db.selectFrom('idempotency_keys').select('state').where('key', '=', 'dependency-down').execute();
    expect(kept).to.deep.equal([]);
    const other = await register('zone-up');
    expect(other.status, JSON.stringify(other.body)).to.equal(201);
    expect(other.headers.get('idempotent-replayed')).to.equal(null);
  });
});

describe('Idempotency-Key across two service processes', function () {
  this.timeout(120_000);
  let server: TestServer;
  let children: ServiceProcess[] = [];

  before(async function () {
    server = await startTestServer();
    if (!server.database.isServer) this.skip();
    const env = {
      ...server.database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      DATA_DIR: `/tmp/booking-test-${process.pid}-children`,
      DB_POOL_SIZE: '10',
      WEB_CONCURRENCY: '1',
    };
    children = await Promise.all([startServiceProcess(env), startServiceProcess(env)]);
  });
  after(async () => {
    await Promise.all(children.map((child) => child.stop()));
    await server?.stop();
  });

  it('books exactly once when both receive the same request with the same key at once', async () => {
    const future = Temporal.Now.instant().add({ hours: 24 * 5 }).round({ smallestUnit: 'hour', roundingMode: 'ceil' });
    for (let round = 0; round < 5; round++) {
      const zoneId = `zone-race-${round}`;
      const id = await registerZone(server, zoneId);
      const start = future.add({ hours: round });
      const body = JSON.stringify(bookingBody(zoneId, start.toString(), start.add({ minutes: 30 }).toString()));
      const token = server.token({ level: 'LV4', sub: 'racer' });
      const key = `race-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          fetch(`${children[i % 2]!.url}${bookings}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
            body,
          }).then(async (res) => ({ status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (await res.json()) as { id?: string; reason?: string } })),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      const others = answers.filter((a) => a.status !== 201);
      expect(created.length, JSON.stringify(answers)).to.be.at.least(1);
      expect(new Set(created.map((a) => a.body.id)).size).to.equal(1);
      expect(created.filter((a) => a.replayed === null)).to.have.length(1);
      for (const other of others) {
        expect(other.status, JSON.stringify(other)).to.equal(409);
        expect(other.body.reason).to.equal('idempotency_key_in_flight');
      }
      const stored = await server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', id).execute();
      expect(stored.map((b) => b.id)).to.deep.equal([created[0]!.body.id]);
    }
  });
});

describe('Idempotency-Key of a process that died mid-request', function () {
  this.timeout(120_000);
  let server: TestServer;
  let child: ServiceProcess | undefined;

  before(async function () {
    server = await startTestServer();
    if (!server.database.isServer) this.skip();
  });
  after(async () => {
    await child?.stop();
    await server?.stop();
  });

  it('holds the key for the 60 s lease, then lets a retry take it over', async () => {
    child = await startServiceProcess({
      ...server.database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      DATA_DIR: `/tmp/booking-test-${process.pid}-children`,
      DB_POOL_SIZE: '4',
      WEB_CONCURRENCY: '1',
    });
    const id = await registerZone(server, 'zone-orphan');
    const start = Temporal.Now.instant().add({ hours: 24 * 5 }).round({ smallestUnit: 'hour', roundingMode: 'ceil' });
    const body = bookingBody('zone-orphan', start.toString(), start.add({ minutes: 30 }).toString());
    const token = server.token();
    const session = await openSession(server.database.config!, 'operator');
    try {
      await session.query('begin');
      await session.query('lock table streams in exclusive mode');
      const orphaned = fetch(`${child.url}${bookings}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': 'orphan' },
        body: JSON.stringify(body),
      }).catch(() => 'connection lost');
      await waitForInFlight(server, 'orphan');
      child.child.kill('SIGKILL');
      await child.exited;
      expect(await orphaned).to.equal('connection lost');
      // The server notices a dead client only when it next talks to it: its connections end with it.
      await session.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`);
    } finally {
      await session.query('commit');
      await session.end();
    }
    const retry = () => server.request('POST', bookings, { body, token, headers: { 'idempotency-key': 'orphan' } });
    const held = await retry();
    expect(held.status).to.equal(409);
    expect(held.body.reason).to.equal('idempotency_key_in_flight');
    const now = Temporal.Now.instant();
    server.services.now = () => now.add({ seconds: 61 });
    const taken = await retry();
    expect(taken.status, JSON.stringify(taken.body)).to.equal(201);
    expect(taken.headers.get('idempotent-replayed')).to.equal(null);
    const replayed = await retry();
    expect(replayed.headers.get('idempotent-replayed')).to.equal('true');
    const stored = await server.database.db.selectFrom('bookings').select('id').where('bookable_resource_id', '=', id).execute();
    expect(stored.map((b) => b.id)).to.deep.equal([taken.body.id]);
  });
});

async function waitForInFlight(server: TestServer, key: string): Promise<void> {
  // Long enough for a service process on a busy machine.
  for (let i = 0; i < 1_200; i++) {
    const row = await server.database.db.selectFrom('idempotency_keys').select('state').where('key', '=', key).executeTakeFirst();
    if (row?.state === 'in_flight') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no request holds the key ${key}`);
}
