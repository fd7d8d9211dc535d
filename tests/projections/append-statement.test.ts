import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import type { Booking } from '../../src/domain/booking/booking.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { WrongExpectedRevisionError } from '../../src/infra/event-store/wrong-expected-revision-error.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * A booking create appends its event and writes the bookings, timers and utilization rows in one
 * statement: these tests hold that statement to the guarantees of the transaction it replaced.
 */
describe('the append statement with its projections', function () {
  this.timeout(60_000);
  let server: TestServer;
  let resourceId: string;
  let streamId: string;
  let created: Booking;
  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    resourceId = await registerZone(server, 'zone-a');
    streamId = resourceStreamId(resourceId);
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-a', '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z') });
    expect(res.status).to.equal(201);
    const [event] = await server.services.eventStore.readStream(streamId, { fromRevision: (await server.services.eventStore.readStreamRevision(streamId))! });
    created = (event!.data as { booking: Booking }).booking;
  });
  after(() => server.stop());

  const db = () => server.database.db;
  const rowsOf = async (bookingId: string) => ({
    bookings: await db().selectFrom('bookings').select('id').where('id', '=', bookingId).execute(),
    timers: await db().selectFrom('timers').select('kind').where('booking_id', '=', bookingId).execute(),
    utilization: await db().selectFrom('utilization_bookings').select('booking_id').where('booking_id', '=', bookingId).execute(),
  });
  const nothing = { bookings: [], timers: [], utilization: [] };

  /** A BookingCreated of a copy of the first booking: a new id, these times. */
  const createdEvent = (startTime: string, endTime: string) => {
    const booking = { ...created, id: randomUUID(), startTime, endTime };
    return { booking, event: { type: 'BookingCreated', data: { booking } } };
  };

  it('writes the booking, its timers and its utilization row with the event', async () => {
    const rows = await rowsOf(created.id);
    expect(rows.bookings).to.have.length(1);
    expect(rows.timers.map((t) => t.kind).sort()).to.deep.equal(['no_show', 'reminder']);
    expect(rows.utilization).to.have.length(1);
  });

  it('a stale expected revision writes no event and no read-model row', async () => {
    const revision = (await server.services.eventStore.readStreamRevision(streamId))!;
    const { booking, event } = createdEvent('2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z');
    const error = await server.services.eventStore.appendToStream(streamId, [event], revision - 1).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(WrongExpectedRevisionError);
    expect((error as WrongExpectedRevisionError).actual).to.equal(revision);
    expect(await server.services.eventStore.readStreamRevision(streamId)).to.equal(revision);
    expect(await rowsOf(booking.id)).to.deep.equal(nothing);
  });

  it('an overlap refused by the exclusion constraint stores neither the event nor any row', async () => {
    const revision = (await server.services.eventStore.readStreamRevision(streamId))!;
    const { booking, event } = createdEvent(created.startTime, created.endTime);
    const error = await server.services.eventStore.appendToStream(streamId, [event], revision).catch((e: unknown) => e);
    expect(error).to.include({ constraint: 'bookings_no_overlap' });
    expect(await server.services.eventStore.readStreamRevision(streamId)).to.equal(revision);
    expect(await server.services.eventStore.readStream(streamId, { fromRevision: revision + 1 })).to.deep.equal([]);
    expect(await rowsOf(booking.id)).to.deep.equal(nothing);
  });

  it('a create is two round trips: its state with the revision, then the append with its projections (and its answer’s Consistency-Token)', async function () {
    if (!server.database.isServer) this.skip(); // the statements are counted on pg's client
    const query = pg.Client.prototype.query;
    let statements = 0;
    let tokens = 0;
    pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
      // The answer's token, the primary's WAL position after the write, is one statement shared by
      // the answers ready while it runs (contract §19): not the create's.
      if (String((args[0] as { text?: string })?.text ?? args[0]).includes('pg_current_wal_lsn()')) tokens += 1;
      else statements += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-a', '2027-01-07T09:00:00Z', '2027-01-07T10:00:00Z') });
      expect(res.status).to.equal(201);
      expect(res.headers.get('consistency-token')).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
    } finally {
      pg.Client.prototype.query = query;
    }
    expect(statements).to.equal(2);
    expect(tokens).to.equal(1);
  });
});
