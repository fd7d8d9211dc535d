import { expect } from 'chai';
import { toEventEnvelope } from '../../src/domain/event-envelope.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { chainHash, genesisHash } from '../../src/infra/event-store/hash-chain.js';
import { openLogReader } from '../../src/infra/event-store/open-log-reader.js';
import { processBatch } from '../../src/workers/process-batch.js';
import type { RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { startTestServerOnStubbedEventStoreDb, type StubbedEventStoreDb } from '../support/stubbed-eventstoredb.js';
import type { TestServer } from '../support/test-server.js';
import { bookingBody, instantAfterPause, registerZone } from './booking/booking-api.js';

/** The wall-clock instant now, after a pause that separates it from the events around it. */
// The client is replaced at its edge (connectionString); the adapter, the readers, the runner and
// the read models in PostgreSQL are the real ones, behind the real HTTP server.
describe('EVENT_STORE=eventstoredb: history, audit feed, asOf, verify-log and lag read EventStoreDB', function () {
  this.timeout(60_000);
  let server: TestServer;
  let esdb: StubbedEventStoreDb;
  let resourceId: string;
  let bookingId: string;
  let otherId: string;
  let alice: string;
  let auditor: string;
  const times = { beforeCreate: '', afterCreate: '', afterReschedule: '' };

  before(async () => {
    ({ server, esdb } = await startTestServerOnStubbedEventStoreDb());
    alice = server.token({ level: 'LV4', sub: 'alice' });
    auditor = server.token({ level: 'LV1', sub: 'auditor' });
    resourceId = await registerZone(server, 'esdb-history', { bookingPolicy: { maxAdvanceDays: 3650, autoConfirm: false } });
    times.beforeCreate = await instantAfterPause();
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('esdb-history', '2030-03-01T09:00:00Z', '2030-03-01T10:00:00Z'), token: alice });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    bookingId = created.body.id;
    times.afterCreate = await instantAfterPause();
    const moved = await server.request('PATCH', `/booking/v1/bookings/${bookingId}`, { token: alice, body: { startTime: '2030-03-02T09:00:00Z', endTime: '2030-03-02T10:00:00Z' } });
    expect(moved.status).to.equal(200);
    times.afterReschedule = await instantAfterPause();
    expect((await server.request('PATCH', `/booking/v1/bookings/${bookingId}/confirm`, { token: server.token({ level: 'LV2', sub: 'admin' }) })).status).to.equal(200);
    const other = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('esdb-history', '2030-03-03T09:00:00Z', '2030-03-03T10:00:00Z') });
    otherId = other.body.id;
  });
  after(async () => {
    await server?.stop();
    esdb?.restore();
  });

  /** The resource's stream as EventStoreDB holds it. */
  const storedStream = () => esdb.events().filter((e) => e.streamId === resourceStreamId(resourceId));

  it('keeps none of these events in PostgreSQL: every answer below comes from EventStoreDB', async () => {
    const local = await server.database.db.selectFrom('events').select('event_type').execute();
    expect(local.map((e) => e.event_type)).to.deep.equal(['ZoneCreated']);
  });

  it('stores the hash chain link of contract §13 in each event’s metadata', () => {
    let head = genesisHash;
    for (const event of storedStream()) {
      head = chainHash(head, { type: event.type, data: event.data, revision: Number(event.revision) });
      expect((event.metadata as { hash?: string }).hash, `${event.type} ${event.revision}`).to.equal(head);
    }
  });

  it('answers a booking’s history from its resource stream: names, actors, changes, positions and links', async () => {
    const res = await server.request('GET', `/booking/v1/bookings/${bookingId}/history`, { token: alice });
    expect(res.status).to.equal(200);
    const events = res.body.events as any[];
    expect(events.map((e) => [e.event, e.by, e.revision])).to.deep.equal([
      ['booking.create', 'alice', 1],
      ['booking.reschedule', 'alice', 2],
      ['booking.confirm', 'admin', 3],
    ]);
    const stored = storedStream().filter((e) => (e.data as any).booking?.id === bookingId);
    expect(events.map((e) => e.position)).to.deep.equal(stored.map((e) => Number(e.position.prepare)));
    expect(events.map((e) => e.hash)).to.deep.equal(stored.map((e) => (e.metadata as { hash: string }).hash));
    expect(events[1].changes.startTime).to.deep.equal({ from: '2030-03-01T09:00:00Z', to: '2030-03-02T09:00:00Z' });
    expect(events.at(-1).booking.status).to.equal('confirmed');
    expect((await server.request('GET', `/booking/v1/bookings/${otherId}/history`, { token: alice })).status).to.equal(404);
  });

  it('pages through a resource’s whole stream whose hashes a client can recompute', async () => {
    const seen: any[] = [];
    let after: number | null = null;
    do {
      const query: string = after === null ? '?limit=2' : `?limit=2&after=${after}`;
      const res = await server.request('GET', `/booking/v1/resources/${resourceId}/history${query}`);
      expect(res.status).to.equal(200);
      seen.push(...res.body.events);
      after = res.body.next;
    } while (after !== null);
    expect(seen.map((e) => e.event)).to.deep.equal(['resource.register', 'booking.create', 'booking.reschedule', 'booking.confirm', 'booking.create']);
    expect(seen.map((e) => e.revision)).to.deep.equal([0, 1, 2, 3, 4]);
    let previous = genesisHash;
    for (const e of seen) {
      previous = chainHash(previous, { type: e.type, data: e.data, revision: e.revision });
      expect(e.hash).to.equal(previous);
    }
  });

  describe('the audit feed over $all', () => {
    const page = async (after: number, query = '') => {
      const res = await server.request('GET', `/booking/v1/events?after=${after}${query}`, { token: auditor });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body as { events: any[]; next: number };
    };
    /** The published events of the log, as EventStoreDB holds them in `$all` order. */
    const published = () =>
      esdb.events().flatMap((e) => toEventEnvelope({ id: e.id, globalPosition: Number(e.position.prepare), type: e.type, data: e.data as Record<string, unknown> }) ?? []);

    it('pages in $all order with next, each event exactly once, numbered by its log position', async () => {
      const seen: any[] = [];
      let cursor = 0;
      for (;;) {
        const { events, next } = await page(cursor, '&limit=1');
        if (events.length === 0) {
          expect(next).to.equal(cursor);
          break;
        }
        expect(events).to.have.length(1);
        expect(next).to.equal(events[0].position);
        seen.push(...events);
        cursor = next;
      }
      expect(seen.map((e) => [e.id, e.event, e.position])).to.deep.equal(published().map((e) => [e.id, e.event, e.position]));
      expect(seen.map((e) => e.event)).to.include.members(['resource.register', 'booking.create', 'booking.reschedule', 'booking.confirm']);
    });

    it('sees an event appended after the end was reached, and keeps the filters', async () => {
      const { next: end } = await page(0, '&limit=1000');
      const cancelled = await server.request('PATCH', `/booking/v1/bookings/${otherId}/cancel`, { token: server.token({ level: 'LV2', sub: 'admin' }), body: {} });
      expect(cancelled.status).to.equal(200);
      const after = await page(end);
      expect(after.events.map((e) => [e.event, e.data.id])).to.deep.equal([['booking.cancel', otherId]]);
      expect((await page(0, '&event=booking.cancel')).events.map((e) => e.data.id)).to.deep.equal([otherId]);
      expect((await page(0, '&workspace=0b9a4a8e-3f6c-4d2a-9d8e-1c2b3a4d5e6f')).events).to.deep.equal([]);
    });

    it('refuses a position that names no event of the log with 400', async () => {
      const [first] = published();
      for (const after of [first!.position + 1, 999_999_999]) {
        const res = await server.request('GET', `/booking/v1/events?after=${after}`, { token: auditor });
        expect(res.status, String(after)).to.equal(400);
        expect(res.body.statusCode).to.equal(400);
      }
    });
  });

  it('answers asOf from the events EventStoreDB recorded by then', async () => {
    const asOf = (at: string) => server.request('GET', `/booking/v1/bookings/${bookingId}?asOf=${encodeURIComponent(at)}`, { token: alice });
    expect((await asOf(times.beforeCreate)).status).to.equal(404);
    const created = await asOf(times.afterCreate);
    expect(created.status).to.equal(200);
    expect(created.body.startTime).to.equal('2030-03-01T09:00:00Z');
    expect((await asOf(times.afterReschedule)).body.startTime).to.equal('2030-03-02T09:00:00Z');
    const schedule = await server.request(
      'GET',
      `/booking/v1/resources/${resourceId}/schedule?from=2030-03-01T00:00:00Z&to=2030-03-04T00:00:00Z&asOf=${encodeURIComponent(times.afterCreate)}`,
      { token: alice },
    );
    expect(schedule.status).to.equal(200);
    expect(schedule.body.bookings.map((b: any) => [b.id, b.startTime])).to.deep.equal([[bookingId, '2030-03-01T09:00:00Z']]);
  });

  it('places a processor that starts at the log’s end after EventStoreDB’s last event, then hands it what follows', async () => {
    const handled: RecordedEvent[] = [];
    const late = { name: 'esdb-late', mode: 'at-least-once' as const, firstPosition: 'log-end' as const, handle: async (e: RecordedEvent) => void handled.push(e) };
    const deps = { db: server.services.db, eventStore: server.services.eventStore };
    expect(await processBatch(deps, late, 100)).to.equal(0);
    const row = await server.database.db.selectFrom('processor_checkpoints').selectAll().where('name', '=', late.name).executeTakeFirstOrThrow();
    const last = esdb.events().at(-1)!;
    expect([String(row.transaction_id), Number(row.global_position)]).to.deep.equal([String(last.position.commit), Number(last.position.prepare)]);
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('esdb-history', '2030-03-05T09:00:00Z', '2030-03-05T10:00:00Z') });
    expect(res.status).to.equal(201);
    await processBatch(deps, late, 100);
    expect(handled.map((e) => [e.type, (e.data as any).booking.id])).to.deep.equal([['BookingCreated', res.body.id]]);
  });

  it('counts each processor’s lag in EventStoreDB’s $all, on /metrics', async () => {
    const { db } = server.services;
    await db.insertInto('processor_checkpoints').values({ name: 'esdb-probe', transaction_id: '0', global_position: 0 }).execute();
    const lags = await server.services.logReader.readProcessorLags();
    expect(lags.find((l) => l.name === 'esdb-probe')?.lagEvents).to.equal(esdb.events().length);
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).to.match(new RegExp(`^processor_lag_events\\{processor="esdb-probe"\\} ${esdb.events().length}$`, 'm'));
    await db.deleteFrom('processor_checkpoints').where('name', '=', 'esdb-probe').execute();
  });

  describe('verify-log on EventStoreDB', () => {
    const verify = async () => {
      // What `npm run verify-log` opens with the service's configuration.
      const log = await openLogReader(server.services.config, server.database.db);
      const progress: [number, number][] = [];
      try {
        return { ...(await log.reader.verifyHashChains((checked, total) => progress.push([checked, total]))), progress };
      } finally {
        await log.close();
      }
    };

    it('walks every stream of $all, system events aside, and finds every chain intact', async () => {
      const { checked, breaks, progress } = await verify();
      expect(breaks).to.deep.equal([]);
      expect(checked).to.equal(esdb.events().length);
      expect(progress.at(-1)).to.deep.equal([checked, checked]);
    });

    it('names the first event whose stored data no longer matches its link', async () => {
      const target = storedStream()[2]!;
      const original = target.data;
      target.data = { ...(original as Record<string, unknown>), by: 'mallory' };
      try {
        const { breaks } = await verify();
        expect(breaks).to.have.length(1);
        expect(breaks[0]).to.deep.equal({
          globalPosition: Number(target.position.prepare),
          eventId: target.id,
          streamId: target.streamId,
          revision: Number(target.revision),
          reason: 'hash does not match',
        });
      } finally {
        target.data = original;
      }
    });
  });
});
