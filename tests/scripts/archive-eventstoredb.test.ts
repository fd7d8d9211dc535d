import { expect } from 'chai';
import { openEventStore } from '../../src/open-event-store.js';
import { runArchiveScript } from '../../src/workers/retention/run-archive-script.js';
import { bookingBody, registerZone, setClock } from '../api/booking/booking-api.js';
import { collected } from '../support/collected-stream.js';
import { startTestServerOnStubbedEventStoreDb, stubbedEventStoreDbEnv } from '../support/stubbed-eventstoredb.js';
import type { TestServer } from '../support/test-server.js';

/** What `npm run archive` does with the configuration of the server's deployment over EventStoreDB. */
async function archive(server: TestServer, args: string[]) {
  const [stdout, stderr] = [collected(), collected()];
  const env = { ...server.database.env, ...stubbedEventStoreDbEnv };
  const code = await runArchiveScript(args, { env, stdout: stdout.stream, stderr: stderr.stream, openStore: openEventStore }, server.database.isServer ? undefined : server.database.db);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

// The client is replaced at its edge (connectionString): the script's store, its runner and the
// read models in PostgreSQL are the real ones, beside a running service on the same deployment.
describe('npm run archive with EVENT_STORE=eventstoredb (contract §13)', function () {
  this.timeout(60_000);

  it('appends the archive events to EventStoreDB, none to PostgreSQL, and the service reads them there', async () => {
    const { server, esdb } = await startTestServerOnStubbedEventStoreDb();
    try {
      await registerZone(server, 'esdb-ret-room', { bookingPolicy: { maxAdvanceDays: 3650 } });
      setClock(server, '2024-01-10T08:00:00Z');
      const ids: string[] = [];
      for (const [start, end] of [['2024-01-10T10:00:00Z', '2024-01-10T11:00:00Z'], ['2024-01-10T12:00:00Z', '2024-01-10T13:00:00Z']] as const) {
        const booked = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('esdb-ret-room', start, end) });
        expect(booked.status, JSON.stringify(booked.body)).to.equal(201);
        expect((await server.request('PATCH', `/booking/v1/bookings/${booked.body.id}/cancel`, { body: {} })).status).to.equal(200);
        ids.push(booked.body.id as string);
      }

      const run = await archive(server, ['--before', '2025-01-01T00:00:00Z']);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.equal('archived 2 bookings that ended before 2025-01-01T00:00:00Z\n');
      expect(run.stderr).to.contain('archiving');

      const archivedInEsdb = () => esdb.events().filter((e) => e.type === 'BookingArchived');
      expect(archivedInEsdb()).to.have.length(2);
      const inPostgres = await server.database.db.selectFrom('events').select('event_id').where('event_type', '=', 'BookingArchived').execute();
      expect(inPostgres).to.deep.equal([]);
      const archived = (await server.request('GET', '/booking/v1/bookings?archived=true')).body;
      expect(archived.data.map((b: { id: string }) => b.id)).to.have.members(ids);
      const history = (await server.request('GET', `/booking/v1/bookings/${ids[0]}/history`)).body;
      expect(history.events.map((e: { event: string }) => e.event)).to.deep.equal(['booking.create', 'booking.cancel', 'booking.archive']);

      const again = await archive(server, ['--before', '2025-01-01T00:00:00Z']);
      expect(again.stdout).to.equal('archived 0 bookings that ended before 2025-01-01T00:00:00Z\n');
      expect(archivedInEsdb()).to.have.length(2);
    } finally {
      await server.stop();
      esdb.restore();
    }
  });
});
