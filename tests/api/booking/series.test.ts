import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

// The service's clock stands at Monday 2027-01-04 08:00Z unless a test moves it.
const monday = '2027-01-04T08:00:00Z';

describe('recurring series over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let guest: string;
  let admin: string;
  let counter = 0;
  /** A zone of its own per test, bookable a year ahead unless the test says otherwise. */
  const freshZone = async (policy: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `zone-s${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, { bookingPolicy: { maxAdvanceDays: 365, ...policy }, ...extra }) };
  };
  const seriesBody = (zoneId: string, extra: Record<string, unknown> = {}) => ({
    resourceType: 'zone',
    resourceId: zoneId,
    title: 'Stand-up',
    startTime: '2027-01-11T09:00:00Z',
    endTime: '2027-01-11T09:30:00Z',
    recurrenceRule: 'FREQ=WEEKLY;COUNT=5',
    ...extra,
  });
  const createSeries = (body: unknown, token: string | null = alice, query = '') => server.request('POST', `/booking/v1/bookings/bulk${query}`, { body, token });
  const patchSeries = (parentId: string, body: unknown, token = alice) => server.request('PATCH', `/booking/v1/bookings/series/${parentId}`, { body, token });
  const cancelSeries = (parentId: string, body: unknown = {}, token = alice) => server.request('PATCH', `/booking/v1/bookings/series/${parentId}/cancel`, { body, token });
  const storedBookings = (resourceUuid: string) =>
    server.database.db.selectFrom('bookings').selectAll().where('bookable_resource_id', '=', resourceUuid).orderBy('start_time').orderBy('is_series_parent').execute();
  const storedEvents = (resourceUuid: string) =>
    server.database.db
      .selectFrom('events')
      .select(['event_type', 'data', 'transaction_id'])
      .where('stream_id', '=', `resource-${resourceUuid}`)
      .where('event_type', 'like', 'Booking%')
      .orderBy('stream_revision')
      .execute();
  const starts = (bookings: { startTime: string }[]) => bookings.map((b) => b.startTime);

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    guest = server.token({ level: 'LV5', sub: 'guest' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
  });
  beforeEach(() => setClock(server, monday));
  after(() => server.stop());

  describe('listing bookings with series parents (contract §14)', () => {
    it('leaves the parent out unless seriesParents=include, and marks every record with isSeriesParent and its registration', async () => {
      const { zoneId, id } = await freshZone();
      const { parent } = (await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=2' }))).body;
      const list = (query: string) => server.request('GET', `/booking/v1/bookings?resourceId=${zoneId}${query}`, { token: alice });
      const plain = await list('');
      expect(plain.status).to.equal(200);
      expect(plain.body.total).to.equal(2);
      expect(plain.body.data.map((b: any) => [b.isSeriesParent, b.bookableResourceId])).to.deep.equal([[false, id], [false, id]]);
      const included = await list('&seriesParents=include');
      expect(included.body.total).to.equal(3);
      expect(included.body.data.filter((b: any) => b.isSeriesParent).map((b: any) => b.id)).to.deep.equal([parent.id]);
      expect((await server.request('GET', `/booking/v1/bookings/${parent.id}`, { token: alice })).body).to.include({ isSeriesParent: true, bookableResourceId: id });
      expect((await list('&seriesParents=all')).status).to.equal(400);
    });
  });

  describe('creating a series', () => {
    it('answers 201 with the parent and every occurrence, appended atomically to the resource stream', async () => {
      const { zoneId, id } = await freshZone();
      const res = await createSeries(seriesBody(zoneId));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const { parent, occurrences } = res.body;
      expect(parent).to.include({
        recurrenceRule: 'FREQ=WEEKLY;COUNT=5',
        recurrenceParentId: null,
        startTime: '2027-01-11T09:00:00Z',
        endTime: '2027-01-11T09:30:00Z',
        bookerProfileId: 'alice',
        status: 'confirmed',
      });
      expect(starts(occurrences)).to.deep.equal(['2027-01-11', '2027-01-18', '2027-01-25', '2027-02-01', '2027-02-08'].map((d) => `${d}T09:00:00Z`));
      for (const occurrence of occurrences) {
        expect(occurrence).to.include({ recurrenceParentId: parent.id, recurrenceRule: null, exceptionOf: null, status: 'confirmed', title: 'Stand-up' });
      }
      const events = await storedEvents(id);
      expect(events.map((e) => e.event_type)).to.deep.equal(Array(6).fill('BookingCreated'));
      expect((events[0]!.data as any).booking.id).to.equal(parent.id);
      expect(new Set(events.map((e) => e.transaction_id)).size, 'one transaction').to.equal(1);
    });

    it('keeps 09:00 local across the DST change (Europe/Berlin, 2027-03-28), in the zone of the resource by default', async () => {
      const { zoneId } = await freshZone({}, { availability: { timeZone: 'Europe/Berlin', hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [{ start: '08:00', end: '18:00' }]])) } });
      const res = await createSeries(seriesBody(zoneId, { startTime: '2027-03-15T09:00:00+01:00', endTime: '2027-03-15T10:00:00+01:00', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=4' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(starts(res.body.occurrences)).to.deep.equal(['2027-03-15T08:00:00Z', '2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z', '2027-04-05T07:00:00Z']);
      const schedule = await server.request('GET', `/booking/v1/resources/${await resourceUuidOf(zoneId)}/schedule?from=2027-03-01T00:00:00Z&to=2027-04-30T00:00:00Z&tz=Europe/Berlin`);
      expect(schedule.body.bookings.map((b: { startTime: string }) => b.startTime)).to.deep.equal([
        '2027-03-15T09:00:00+01:00',
        '2027-03-22T09:00:00+01:00',
        '2027-03-29T09:00:00+02:00',
        '2027-04-05T09:00:00+02:00',
      ]);
    });

    it('expands in the zone named by the request', async () => {
      const { zoneId } = await freshZone();
      const res = await createSeries(
        seriesBody(zoneId, { startTime: '2027-03-22T09:00:00-04:00', endTime: '2027-03-22T09:30:00-04:00', recurrenceRule: 'FREQ=DAILY;COUNT=2', timeZone: 'Europe/Berlin' }),
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      // 14:00 in Berlin on the 22nd (UTC+1) stays 14:00 on the 29th after the change (UTC+2).
      expect(starts(res.body.occurrences)).to.deep.equal(['2027-03-22T13:00:00Z', '2027-03-23T13:00:00Z']);
    });

    it('refuses the whole series when one occurrence conflicts: 409 listing that booking, nothing stored', async () => {
      const { zoneId, id } = await freshZone();
      const single = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-01-25T09:15:00Z', '2027-01-25T10:00:00Z'), token: bob });
      expect(single.status).to.equal(201);
      const res = await createSeries(seriesBody(zoneId));
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ statusCode: 409 });
      expect(res.body.conflicts).to.deep.equal([{ bookingId: single.body.id, startTime: '2027-01-25T09:15:00Z', endTime: '2027-01-25T10:00:00Z' }]);
      expect((await storedBookings(id)).map((b) => b.id)).to.deep.equal([single.body.id]);
      expect(await storedEvents(id)).to.have.length(1);
    });

    it('lists every conflicting booking once, earliest first', async () => {
      const { zoneId } = await freshZone({ maxDurationMinutes: 2000 });
      const book = (start: string, end: string) => server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end), token: bob });
      const late = await book('2027-02-08T08:00:00Z', '2027-02-08T09:10:00Z');
      const early = await book('2027-01-18T09:20:00Z', '2027-01-18T11:00:00Z');
      await book('2027-01-19T09:00:00Z', '2027-01-19T10:00:00Z');
      const res = await createSeries(seriesBody(zoneId));
      expect(res.status).to.equal(409);
      expect(res.body.conflicts.map((c: { bookingId: string }) => c.bookingId)).to.deep.equal([early.body.id, late.body.id]);
      // One booking spanning two daily occurrences is listed once.
      const spanning = await book('2027-03-05T09:00:00Z', '2027-03-06T10:00:00Z');
      const again = await createSeries(seriesBody(zoneId, { startTime: '2027-03-05T09:30:00Z', endTime: '2027-03-05T09:45:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=2' }), admin);
      expect(again.body.conflicts).to.deep.equal([{ bookingId: spanning.body.id, startTime: '2027-03-05T09:00:00Z', endTime: '2027-03-06T10:00:00Z' }]);
    });

    it('refuses occurrences overlapping one another (400)', async () => {
      const { zoneId, id } = await freshZone({ maxDurationMinutes: 3000 });
      const res = await createSeries(seriesBody(zoneId, { endTime: '2027-01-12T10:00:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=3' }));
      expect(res.status).to.equal(400);
      expect(res.body.message).to.match(/overlap each other/);
      expect(await storedBookings(id)).to.have.length(0);
    });

    it('answers abusive or broken rules quickly with 400 and a message saying why', async () => {
      const { zoneId, id } = await freshZone({ maxAdvanceDays: 3650 });
      const cases: [string, Record<string, unknown>, RegExp][] = [
        ['FREQ=SECONDLY;COUNT=10', {}, /finer than DAILY/],
        ['FREQ=MINUTELY', {}, /finer than DAILY/],
        ['FREQ=DAILY;COUNT=100000', {}, /more than 500 occurrences/],
        ['FREQ=DAILY;UNTIL=99991231T000000Z', {}, /more than 500 occurrences/],
        ['FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=2', { startTime: '2027-01-31T09:00:00Z', endTime: '2027-01-31T09:30:00Z' }, /does not fit startTime/],
        ['FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2;COUNT=3', { startTime: '2027-01-31T09:00:00Z', endTime: '2027-01-31T09:30:00Z' }, /does not fit startTime/],
        ['FREQ=WEEKLY;BYDAY=TU;COUNT=3', {}, /does not fit startTime/],
        ['FREQ=WEEKLY;COUNT=3;UNTIL=20270301T000000Z', {}, /COUNT and UNTIL/],
        ['FREQ=WEEKLY;BYHOUR=9', {}, /BYHOUR is not supported/],
        ['not a rule', {}, /not a valid RRULE/],
      ];
      for (const [rule, extra, message] of cases) {
        const started = performance.now();
        const res = await createSeries(seriesBody(zoneId, { recurrenceRule: rule, ...extra }));
        const elapsed = performance.now() - started;
        expect(res.status, `${rule}: ${JSON.stringify(res.body)}`).to.equal(400);
        expect(res.body.message, rule).to.match(message);
        expect(res.body.errors, rule).to.deep.equal([{ path: '/body/recurrenceRule', message: res.body.message }]);
        expect(elapsed, rule).to.be.below(1000);
      }
      expect(await storedBookings(id)).to.have.length(0);
    });

    it('refuses a series on a resource that does not allow recurring bookings (422 allowRecurring)', async () => {
      const { zoneId } = await freshZone({ allowRecurring: false });
      const res = await createSeries(seriesBody(zoneId));
      expect(res.status).to.equal(422);
      expect(res.body).to.include({ statusCode: 422, policy: 'allowRecurring' });
    });

    it('refuses occurrences past maxAdvanceDays (422), and expands a rule without COUNT or UNTIL up to that horizon', async () => {
      const { zoneId, id } = await freshZone({ maxAdvanceDays: 30 });
      const tooFar = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=10' }));
      expect(tooFar.status).to.equal(422);
      expect(tooFar.body.policy).to.equal('maxAdvanceDays');
      expect(await storedBookings(id)).to.have.length(0);
      const open = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY' }));
      expect(open.status).to.equal(201);
      // Horizon 2027-02-03T08:00Z: the Mondays up to it.
      expect(starts(open.body.occurrences)).to.deep.equal(['2027-01-11T09:00:00Z', '2027-01-18T09:00:00Z', '2027-01-25T09:00:00Z', '2027-02-01T09:00:00Z']);
    });

    it('checks every occurrence against every policy: one outside the operating hours refuses the series (422 availability)', async () => {
      const hours = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [{ start: '08:00', end: '18:00' }]]));
      const { zoneId } = await freshZone({}, { availability: { timeZone: 'UTC', hours } });
      const res = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=DAILY;COUNT=6' }));
      expect(res.status).to.equal(422);
      expect(res.body.policy).to.equal('availability');
      expect(res.body.message).to.contain('2027-01-16T09:00:00Z');
    });

    it('counts the whole series against maxBookingsPerUser', async () => {
      const { zoneId } = await freshZone({ maxBookingsPerUser: 6 });
      await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z') });
      const tooMany = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=6' }), admin);
      expect(tooMany.status).to.equal(201);
      const mine = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-01-06T09:00:00Z', '2027-01-06T10:00:00Z'), token: alice });
      expect(mine.status).to.equal(201);
      const refused = await createSeries(seriesBody(zoneId, { startTime: '2027-01-12T09:00:00Z', endTime: '2027-01-12T09:30:00Z', recurrenceRule: 'FREQ=WEEKLY;COUNT=6' }));
      expect(refused.status).to.equal(422);
      expect(refused.body.policy).to.equal('maxBookingsPerUser');
      const fits = await createSeries(seriesBody(zoneId, { startTime: '2027-01-12T09:00:00Z', endTime: '2027-01-12T09:30:00Z', recurrenceRule: 'FREQ=WEEKLY;COUNT=5' }));
      expect(fits.status).to.equal(201);
    });

    it('answers request errors in the contract’s order: 400, 403, 404', async () => {
      const { zoneId } = await freshZone();
      expect((await createSeries(seriesBody(zoneId, { timeZone: 'Mars/Olympus' }))).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=HOURLY' }), guest)).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId, { startTime: '2027-01-11T09:00:00' }))).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId, { endTime: '2027-01-11T08:00:00Z' }))).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId, { startTime: '2027-01-01T09:00:00Z', endTime: '2027-01-01T09:30:00Z' }))).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId, { workspace: randomUUID() }))).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId), guest)).status).to.equal(403);
      expect((await createSeries(seriesBody('zone-unknown'))).status).to.equal(404);
      expect((await createSeries(seriesBody(zoneId), null)).status).to.equal(401);
      const excludedAll = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=1', exdates: ['2027-01-11T10:00:00+01:00'] }));
      expect(excludedAll.status).to.equal(400);
    });

    it('leaves out the occurrences named in exdates', async () => {
      const { zoneId } = await freshZone();
      const res = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=3', exdates: ['2027-01-18T10:00:00+01:00'] }));
      expect(res.status).to.equal(201);
      expect(starts(res.body.occurrences)).to.deep.equal(['2027-01-11T09:00:00Z', '2027-01-25T09:00:00Z']);
    });

    it('keeps the parent out of schedules, conflicts and single-booking moves', async () => {
      const { zoneId, id } = await freshZone();
      const { body } = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=2', exdates: ['2027-01-11T09:00:00Z'] }));
      const schedule = await server.request('GET', `/booking/v1/resources/${id}/schedule?from=2027-01-10T00:00:00Z&to=2027-01-20T00:00:00Z`);
      expect(schedule.body.bookings.map((b: { id: string }) => b.id)).to.deep.equal([body.occurrences[0].id]);
      // The parent holds 2027-01-11 09:00 but blocks nothing.
      const single = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-01-11T09:00:00Z', '2027-01-11T09:30:00Z'), token: bob });
      expect(single.status).to.equal(201);
      const reschedule = await server.request('PATCH', `/booking/v1/bookings/${body.parent.id}`, { body: { title: 'x' } });
      expect(reschedule.status).to.equal(409);
      const cancel = await server.request('PATCH', `/booking/v1/bookings/${body.parent.id}/cancel`, { body: {} });
      expect(cancel.status).to.equal(409);
    });
  });

  describe('previewing a series (dryRun=true)', () => {
    it('answers every occurrence with its conflicts and violations, and stores nothing', async () => {
      const { zoneId, id } = await freshZone({ maxAdvanceDays: 30 });
      const single = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-01-18T09:00:00Z', '2027-01-18T09:10:00Z'), token: bob });
      const before = await storedEvents(id);
      const res = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=5' }), alice, '?dryRun=true');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        occurrences: [
          { startTime: '2027-01-11T09:00:00Z', endTime: '2027-01-11T09:30:00Z', conflicts: [], availableUnits: 1, violations: [] },
          {
            startTime: '2027-01-18T09:00:00Z',
            endTime: '2027-01-18T09:30:00Z',
            conflicts: [{ bookingId: single.body.id, startTime: '2027-01-18T09:00:00Z', endTime: '2027-01-18T09:10:00Z' }],
            availableUnits: 0,
            violations: [],
          },
          { startTime: '2027-01-25T09:00:00Z', endTime: '2027-01-25T09:30:00Z', conflicts: [], availableUnits: 1, violations: [] },
          { startTime: '2027-02-01T09:00:00Z', endTime: '2027-02-01T09:30:00Z', conflicts: [], availableUnits: 1, violations: [] },
          { startTime: '2027-02-08T09:00:00Z', endTime: '2027-02-08T09:30:00Z', conflicts: [], availableUnits: 1, violations: ['maxAdvanceDays'] },
        ],
      });
      expect(await storedEvents(id)).to.deep.equal(before);
      expect(await storedBookings(id)).to.have.length(1);
    });

    it('names maxBookingsPerUser from the occurrence that passes the limit', async () => {
      const { zoneId } = await freshZone({ maxBookingsPerUser: 2 });
      const res = await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=WEEKLY;COUNT=3' }), alice, '?dryRun=true');
      expect(res.body.occurrences.map((o: { violations: string[] }) => o.violations)).to.deep.equal([[], [], ['maxBookingsPerUser']]);
    });

    it('still fails the request as a whole: 400, 403, 404, 422 allowRecurring', async () => {
      const { zoneId } = await freshZone();
      const { zoneId: closed } = await freshZone({ allowRecurring: false });
      expect((await createSeries(seriesBody(zoneId, { recurrenceRule: 'FREQ=SECONDLY' }), alice, '?dryRun=true')).status).to.equal(400);
      expect((await createSeries(seriesBody(zoneId), guest, '?dryRun=true')).status).to.equal(403);
      expect((await createSeries(seriesBody('zone-unknown'), alice, '?dryRun=true')).status).to.equal(404);
      const refused = await createSeries(seriesBody(closed), alice, '?dryRun=true');
      expect(refused.status).to.equal(422);
      expect(refused.body.policy).to.equal('allowRecurring');
      expect((await createSeries(seriesBody(zoneId), alice, '?dryRun=maybe')).status).to.equal(400);
    });

    it('creates the series with dryRun=false', async () => {
      const { zoneId } = await freshZone();
      expect((await createSeries(seriesBody(zoneId), alice, '?dryRun=false')).status).to.equal(201);
    });
  });

  /** A weekly series of five on Mondays from 2027-01-11, its third occurrence moved to Wednesday. */
  async function seriesWithException(zoneId: string) {
    const created = await createSeries(seriesBody(zoneId));
    expect(created.status).to.equal(201);
    const { parent, occurrences } = created.body;
    const moved = await server.request('PATCH', `/booking/v1/bookings/${occurrences[2].id}`, {
      body: { startTime: '2027-01-27T14:00:00Z', endTime: '2027-01-27T15:00:00Z' },
      token: alice,
    });
    expect(moved.status).to.equal(200);
    return { parent, occurrences, exception: moved.body };
  }

  describe('a single occurrence changed on its own', () => {
    it('is detached from the series: recurrenceParentId null, exceptionOf the parent', async () => {
      const { zoneId } = await freshZone();
      const { parent, exception } = await seriesWithException(zoneId);
      expect(exception).to.include({ recurrenceParentId: null, exceptionOf: parent.id, startTime: '2027-01-27T14:00:00Z' });
    });
  });

  describe('changing a series', () => {
    it('moves every future occurrence but the exception, keeping their ids, and adds none on the exception’s date', async () => {
      const { zoneId, id } = await freshZone();
      const { parent, occurrences, exception } = await seriesWithException(zoneId);
      const res = await patchSeries(parent.id, { title: 'Team sync', startTime: '2027-01-11T10:00:00Z', endTime: '2027-01-11T11:00:00Z' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.parent).to.include({ id: parent.id, title: 'Team sync', startTime: '2027-01-11T10:00:00Z', endTime: '2027-01-11T11:00:00Z' });
      const kept = [0, 1, 3, 4].map((i) => occurrences[i].id);
      expect(res.body.occurrences.map((b: { id: string }) => b.id)).to.deep.equal(kept);
      expect(starts(res.body.occurrences)).to.deep.equal(['2027-01-11', '2027-01-18', '2027-02-01', '2027-02-08'].map((d) => `${d}T10:00:00Z`));
      for (const b of res.body.occurrences) expect(b).to.include({ title: 'Team sync', recurrenceParentId: parent.id, status: 'confirmed' });
      const rows = await storedBookings(id);
      expect(rows.find((r) => r.id === exception.id)).to.include({ title: 'Stand-up', exception_of: parent.id, recurrence_parent_id: null });
      expect(rows).to.have.length(6);
      const events = (await storedEvents(id)).slice(-5);
      expect(events.map((e) => e.event_type)).to.deep.equal(Array(5).fill('BookingRescheduled'));
    });

    it('leaves past occurrences alone and changes only those still ahead', async () => {
      const { zoneId } = await freshZone();
      const { parent, occurrences } = await seriesWithException(zoneId);
      setClock(server, '2027-01-20T00:00:00Z');
      const res = await patchSeries(parent.id, { title: 'Later' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.occurrences.map((b: { id: string }) => b.id)).to.deep.equal([occurrences[3].id, occurrences[4].id]);
      const past = await server.request('GET', `/booking/v1/bookings/${occurrences[1].id}`);
      expect(past.body.title).to.equal('Stand-up');
    });

    it('follows a new rule: occurrences that leave the pattern are cancelled with reason "series changed", new dates are booked', async () => {
      const { zoneId } = await freshZone();
      const { parent, occurrences, exception } = await seriesWithException(zoneId);
      const res = await patchSeries(parent.id, { recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU;COUNT=6' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // Mondays and Tuesdays from 2027-01-11: the 25th stays out (the exception's date).
      expect(starts(res.body.occurrences)).to.deep.equal(['2027-01-11', '2027-01-12', '2027-01-18', '2027-01-19', '2027-01-26'].map((d) => `${d}T09:00:00Z`));
      const ids = res.body.occurrences.map((b: { id: string }) => b.id);
      expect(ids[0]).to.equal(occurrences[0].id);
      expect(ids[2]).to.equal(occurrences[1].id);
      for (const gone of [occurrences[3], occurrences[4]]) {
        const read = await server.request('GET', `/booking/v1/bookings/${gone.id}`);
        expect(read.body).to.include({ status: 'cancelled', reason: 'series changed', cancelledBy: 'alice' });
      }
      expect((await server.request('GET', `/booking/v1/bookings/${exception.id}`)).body.status).to.equal('confirmed');
    });

    it('moves occurrences over their own old slots without conflicting with themselves', async () => {
      const { zoneId } = await freshZone();
      const { body } = await createSeries(seriesBody(zoneId, { endTime: '2027-01-11T10:00:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=10' }));
      const later = await patchSeries(body.parent.id, { startTime: '2027-01-11T09:30:00Z', endTime: '2027-01-11T10:30:00Z' });
      expect(later.status, JSON.stringify(later.body)).to.equal(200);
      const earlier = await patchSeries(body.parent.id, { startTime: '2027-01-11T08:15:00Z', endTime: '2027-01-11T09:45:00Z' });
      expect(earlier.status, JSON.stringify(earlier.body)).to.equal(200);
      expect(starts(earlier.body.occurrences)[9]).to.equal('2027-01-20T08:15:00Z');
    });

    it('moves long occurrences into their neighbours’ old slots, later and earlier, without an overlap on the way', async () => {
      const { zoneId, id } = await freshZone({ maxDurationMinutes: 1440 });
      const { body } = await createSeries(seriesBody(zoneId, { endTime: '2027-01-12T05:00:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=5' }));
      // 20 hours a day: six hours later, each occurrence reaches into the next one's old slot.
      const later = await patchSeries(body.parent.id, { startTime: '2027-01-11T15:00:00Z' });
      expect(later.status, JSON.stringify(later.body)).to.equal(200);
      expect(later.body.occurrences.map((b: { endTime: string }) => b.endTime)[4]).to.equal('2027-01-16T11:00:00Z');
      const earlier = await patchSeries(body.parent.id, { startTime: '2027-01-11T06:00:00Z' });
      expect(earlier.status, JSON.stringify(earlier.body)).to.equal(200);
      expect(starts(earlier.body.occurrences)).to.deep.equal(['11', '12', '13', '14', '15'].map((d) => `2027-01-${d}T06:00:00Z`));
      expect(new Set((await storedBookings(id)).map((b) => b.id))).to.deep.equal(new Set([body.parent.id, ...body.occurrences.map((b: { id: string }) => b.id)]));
    });

    it('is all or nothing: a conflict with another booking answers 409 listing it and changes nothing', async () => {
      const { zoneId, id } = await freshZone();
      const { parent } = await seriesWithException(zoneId);
      const single = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, '2027-02-01T10:30:00Z', '2027-02-01T11:00:00Z'), token: bob });
      const before = await storedBookings(id);
      // The exception (Wednesday 14:00) is in the way of nothing; bob's booking is.
      const res = await patchSeries(parent.id, { startTime: '2027-01-11T10:00:00Z', endTime: '2027-01-11T11:00:00Z' });
      expect(res.status).to.equal(409);
      expect(res.body.conflicts).to.deep.equal([{ bookingId: single.body.id, startTime: '2027-02-01T10:30:00Z', endTime: '2027-02-01T11:00:00Z' }]);
      expect(await storedBookings(id)).to.deep.equal(before);
    });

    it('applies the policies: past the horizon 422, a bad rule 400, a cancelled series 409', async () => {
      const { zoneId } = await freshZone({ maxAdvanceDays: 60 });
      const { body } = await createSeries(seriesBody(zoneId));
      expect((await patchSeries(body.parent.id, { recurrenceRule: 'FREQ=WEEKLY;COUNT=20' })).body.policy).to.equal('maxAdvanceDays');
      expect((await patchSeries(body.parent.id, { recurrenceRule: 'FREQ=SECONDLY' })).status).to.equal(400);
      expect((await patchSeries(body.parent.id, { endTime: '2027-01-11T08:00:00Z' })).status).to.equal(400);
      expect((await patchSeries(body.parent.id, { timeZone: 'Nowhere/Land' })).status).to.equal(400);
      expect((await patchSeries(body.parent.id, {})).status).to.equal(400);
      expect((await cancelSeries(body.parent.id)).status).to.equal(200);
      const res = await patchSeries(body.parent.id, { title: 'again' });
      expect(res.status).to.equal(409);
      expect(res.body.reason).to.equal('invalid_transition');
    });

    it('belongs to the booker and LV1–LV3: another user gets 404, a guest 403, an admin may', async () => {
      const { zoneId } = await freshZone();
      const { body } = await createSeries(seriesBody(zoneId));
      expect((await patchSeries(body.parent.id, { title: 'mine' }, bob)).status).to.equal(404);
      expect((await patchSeries(body.parent.id, { title: 'mine' }, guest)).status).to.equal(403);
      expect((await patchSeries(body.occurrences[0].id, { title: 'mine' })).status).to.equal(404);
      expect((await patchSeries('00000000-0000-4000-8000-000000000000', { title: 'mine' })).status).to.equal(404);
      expect((await patchSeries('not-a-uuid', { title: 'mine' })).status).to.equal(400);
      const res = await patchSeries(body.parent.id, { title: 'By admin' }, admin);
      expect(res.status).to.equal(200);
      expect(res.body.occurrences[0]).to.include({ title: 'By admin', bookerProfileId: 'alice' });
    });
  });

  describe('cancelling a series', () => {
    it('cancels the parent and every occurrence still ahead, not the past one nor the exception; one booking.cancel each', async () => {
      const { zoneId, id } = await freshZone();
      const { parent, occurrences, exception } = await seriesWithException(zoneId);
      setClock(server, '2027-01-12T00:00:00Z');
      const res = await cancelSeries(parent.id, { reason: 'team disbanded' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.parent).to.include({ id: parent.id, status: 'cancelled', reason: 'team disbanded', cancelledBy: 'alice' });
      expect(res.body.cancelled).to.deep.equal([occurrences[1].id, occurrences[3].id, occurrences[4].id]);
      const rows = await storedBookings(id);
      const status = (bookingId: string) => rows.find((r) => r.id === bookingId)!.status;
      expect(status(occurrences[0].id)).to.equal('confirmed');
      expect(status(exception.id)).to.equal('confirmed');
      const cancels = (await storedEvents(id)).filter((e) => e.event_type === 'BookingCancelled');
      expect(cancels.map((e) => (e.data as any).booking.id)).to.have.members([parent.id, ...res.body.cancelled]);
      expect((await cancelSeries(parent.id)).status).to.equal(409);
    });

    it('keeps, for LV4, the occurrences inside the cancellation-notice window; an admin cancels them too', async () => {
      const { zoneId } = await freshZone({ cancellationPolicy: { minNoticeMinutes: 3 * 24 * 60 } });
      const mine = await createSeries(seriesBody(zoneId, { startTime: '2027-01-05T09:00:00Z', endTime: '2027-01-05T09:30:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=5' }));
      const res = await cancelSeries(mine.body.parent.id);
      expect(res.status).to.equal(200);
      // The starts on the 5th and 6th lie within three days of Monday 08:00; the 7th, 09:00 does not.
      expect(res.body.cancelled).to.deep.equal(mine.body.occurrences.slice(2).map((b: { id: string }) => b.id));
      const theirs = await createSeries(seriesBody(zoneId, { startTime: '2027-02-05T09:00:00Z', endTime: '2027-02-05T09:30:00Z', recurrenceRule: 'FREQ=DAILY;COUNT=2' }));
      setClock(server, '2027-02-04T09:00:00Z');
      expect((await cancelSeries(theirs.body.parent.id, {}, admin)).body.cancelled).to.have.length(2);
    });

    it('belongs to the booker and LV1–LV3', async () => {
      const { zoneId } = await freshZone();
      const { body } = await createSeries(seriesBody(zoneId));
      expect((await cancelSeries(body.parent.id, {}, bob)).status).to.equal(404);
      expect((await cancelSeries(body.parent.id, {}, guest)).status).to.equal(403);
      expect((await cancelSeries(body.occurrences[0].id)).status).to.equal(404);
      expect((await cancelSeries(body.parent.id, { reason: 'x', extra: 1 })).status).to.equal(400);
      expect((await server.request('PATCH', `/booking/v1/bookings/series/${body.parent.id}/cancel`, { token: alice })).status).to.equal(200);
    });
  });

  async function resourceUuidOf(zoneId: string): Promise<string> {
    const row = await server.database.db.selectFrom('resources').select('id').where('resource_id', '=', zoneId).where('workspace', '=', server.workspace).executeTakeFirstOrThrow();
    return row.id;
  }
});
