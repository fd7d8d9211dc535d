import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { booking } from '../../domain/booking/booking-fixtures.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';
import { deviceRecord, zoneRecord } from '../../support/record-samples.js';
import { assertPublishedEvent } from '../../support/published-event-schemas.js';
import { openSession } from '../../support/database-session.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

type FeedEvent = { id: string; event: string; position: number; workspace: string; data: { id: string } };

describe('the audit feed GET /booking/v1/events', function () {
  this.timeout(120_000);
  let server: TestServer;
  let admin: string;
  let room: string;
  let slot = 0;

  /** A booking created over HTTP in the server's workspace; answers its id. */
  const createBooking = async () => {
    slot += 1;
    const day = String(5 + Math.floor(slot / 10)).padStart(2, '0');
    const hour = String(8 + (slot % 10)).padStart(2, '0');
    const res = await server.request('POST', '/booking/v1/bookings', {
      body: bookingBody('feed-room', `2027-01-${day}T${hour}:00:00Z`, `2027-01-${day}T${hour}:30:00Z`),
      token: admin,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };

  const page = async (after: number, query = '', token = admin) => {
    const res = await server.request('GET', `/booking/v1/events?after=${after}${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { events: FeedEvent[]; next: number };
  };

  /** Pages from `after` until a page comes back empty; answers the events and the last cursor. */
  const readToEnd = async (after: number, query = '&limit=3') => {
    const events: FeedEvent[] = [];
    for (let cursor = after; ; ) {
      const { events: batch, next } = await page(cursor, query);
      events.push(...batch);
      if (batch.length === 0) return { events, next };
      cursor = next;
    }
  };

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    admin = server.token({ level: 'LV2', sub: 'admin' });
    room = await registerZone(server, 'feed-room');
  });
  after(() => server.stop());

  it('answers booking events as envelopes with their position, in log order, paged with next', async () => {
    const first = await createBooking();
    const cancelled = await createBooking();
    expect((await server.request('PATCH', `/booking/v1/bookings/${cancelled}/cancel`, { token: admin, body: {} })).status).to.equal(200);
    const { events, next } = await readToEnd(0, '&limit=1');
    expect(events.map((e) => [e.event, e.data.id])).to.deep.equal([
      ['resource.register', room],
      ['booking.create', first],
      ['booking.create', cancelled],
      ['booking.cancel', cancelled],
    ]);
    expect(events.every((e) => e.workspace === server.workspace)).to.equal(true);
    expect(next).to.equal(events.at(-1)!.position);
    const again = await page(next);
    expect(again).to.deep.equal({ events: [], next });
    const cancels = await page(0, '&event=booking.cancel');
    expect(cancels.events.map((e) => e.data.id)).to.deep.equal([cancelled]);
  });

  it('lists resource, device and zone events too, each under the name the webhooks and Kafka give it', async () => {
    const { next: start } = await readToEnd(0);
    const resource = await registerZone(server, 'feed-desk');
    for (const change of [{ capacity: 3 }, { isActive: false }, { isActive: true }]) {
      expect((await server.request('PATCH', `/booking/v1/resources/${resource}`, { token: admin, body: change })).status).to.equal(200);
    }
    expect((await server.request('DELETE', `/booking/v1/resources/${resource}`, { token: admin })).status).to.equal(204);
    const store = createPostgresEventStore(server.database.db, { projections: [] });
    const { workspace } = server;
    const at = '2027-01-04T08:00:00Z';
    const zone = zoneRecord(workspace, 'zone-gone');
    const device = deviceRecord(workspace, 'dev-gone');
    await store.appendToStream(`test-${randomUUID()}`, [
      // Not published: a record change other than a deletion, and a resource event stored before events carried the resource.
      { type: 'ZoneUpdated', data: { workspace, id: zone.id, record: zone, by: 'admin', at } },
      { type: 'ResourceDeactivated', data: { id: resource, reason: 'zone deleted', by: 'system', at } },
      { type: 'ZoneDeleted', data: { workspace, id: zone.id, record: zone, by: 'admin', at } },
      { type: 'DeviceDeleted', data: { workspace, id: device.id, record: device, by: 'admin', at } },
    ], 'no_stream');

    const { events } = await readToEnd(start, '&limit=2');
    expect(events.map((e) => e.event)).to.deep.equal(['resource.register', 'resource.update', 'resource.deactivate', 'resource.activate', 'resource.remove', 'zone.delete', 'device.delete']);
    expect(events.slice(0, 5).map((e) => e.data.id)).to.deep.equal(Array(5).fill(resource));
    expect(events.every((e) => e.workspace === workspace)).to.equal(true);
    events.forEach((e) => assertPublishedEvent(e));
    for (const name of new Set(events.map((e) => e.event))) {
      const only = await readToEnd(start, `&limit=2&event=${name}`);
      expect(only.events.map((e) => e.id), name).to.deep.equal(events.filter((e) => e.event === name).map((e) => e.id));
    }
    const lv1 = server.token({ level: 'LV1', sub: 'root', workspace: null });
    const elsewhere = await server.request('GET', `/booking/v1/events?after=${start}&limit=1000&workspace=${randomUUID()}`, { token: lv1 });
    expect(elsewhere.body.events).to.deep.equal([]);
  });

  it('sees every event exactly once when a transaction commits after a later position', async function () {
    if (!server.database.isServer) this.skip(); // needs a second session on the same database
    // With PROJECTIONS=async a write answers once the read models pass it, and they cannot pass a
    // transaction left open on this database (the late-commit horizon): the create answers 503.
    if (server.services.config.projections === 'async') this.skip();
    const { next: start } = await readToEnd(0);
    const config = server.database.config!;
    const slow = await openSession(config, 'service');
    try {
      await slow.query('begin');
      await slow.query('select pg_current_xact_id()');
      // Committed while the slow transaction is open: a later transaction id, an earlier position.
      const early = await createBooking();
      const whileOpen = await readToEnd(start);
      expect(whileOpen.events).to.deep.equal([]);
      expect(whileOpen.next).to.equal(start);
      const late = booking({ workspace: server.workspace });
      await slow.query(
        `insert into events (event_id, stream_id, stream_revision, event_type, data, hash)
         values ($1, $2, 0, 'BookingCreated', $3, repeat('0', 64))`,
        [randomUUID(), `test-${randomUUID()}`, JSON.stringify({ booking: late, by: 'slow', at: '2027-01-04T08:00:00Z' })],
      );
      await slow.query('commit');
      const after = await createBooking();
      const { events } = await readToEnd(start, '&limit=1');
      expect(events.map((e) => e.data.id)).to.deep.equal([late.id, early, after]);
      expect(events[0]!.position).to.be.greaterThan(events[1]!.position);
    } finally {
      await slow.end();
    }
  });

  it('a reader paging during parallel appends gets each event once', async function () {
    if (!server.database.isServer) this.skip();
    const { next: start } = await readToEnd(0);
    const store = createPostgresEventStore(server.database.db, { projections: [] });
    const written = Array.from({ length: 40 }, () => booking({ workspace: server.workspace }));
    let writing = true;
    const writers = Promise.all(
      written.map((b) => store.appendToStream(`test-${randomUUID()}`, [{ type: 'BookingCreated', data: { booking: b, by: 'w', at: b.createdAt } }], 'no_stream')),
    ).finally(() => (writing = false));
    const seen: string[] = [];
    let cursor = start;
    while (writing) {
      const { events, next } = await page(cursor, '&limit=2');
      seen.push(...events.map((e) => e.data.id));
      cursor = next;
    }
    await writers;
    seen.push(...(await readToEnd(cursor)).events.map((e) => e.data.id));
    expect([...seen].sort()).to.deep.equal(written.map((b) => b.id).sort());
  });

  it('LV1 reads every workspace or the one it names; LV2 only its own (naming another: 400, CONTRACT §2); others 403', async () => {
    const foreign = booking({ workspace: randomUUID() });
    const store = createPostgresEventStore(server.database.db, { projections: [] });
    await store.appendToStream(`test-${randomUUID()}`, [{ type: 'BookingCreated', data: { booking: foreign, by: 'x', at: foreign.createdAt } }], 'no_stream');
    const ownIds = (await readToEnd(0)).events.map((e) => e.data.id);
    expect(ownIds).not.to.include(foreign.id);

    const lv1 = server.token({ level: 'LV1', sub: 'root', workspace: null });
    const all = (await page(0, '&limit=1000', lv1)).events.map((e) => e.data.id);
    expect(all).to.include(foreign.id);
    expect(all).to.include.members(ownIds);
    const named = (await page(0, `&limit=1000&workspace=${foreign.workspace}`, lv1)).events;
    expect(named.map((e) => e.data.id)).to.deep.equal([foreign.id]);

    const other = await server.request('GET', `/booking/v1/events?workspace=${foreign.workspace}`, { token: admin });
    expect(other.status).to.equal(400);
    for (const level of ['LV3', 'LV4', 'LV5'] as const) {
      const res = await server.request('GET', '/booking/v1/events', { token: server.token({ level }) });
      expect(res.status, level).to.equal(403);
    }
  });

  it('refuses after and limit out of range, unknown kinds and a position that is no event with 400', async () => {
    for (const query of ['limit=0', 'limit=1001', 'after=-1', 'after=abc', 'event=booking.nope', 'after=999999999']) {
      const res = await server.request('GET', `/booking/v1/events?${query}`, { token: admin });
      expect(res.status, query).to.equal(400);
      expect(res.body.statusCode, query).to.equal(400);
    }
  });
});
