import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { rebuildReadModels } from '../../../src/projections/rebuild-read-models.js';
import { seedZone } from '../../support/device-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

const quotaFields = ['id', 'workspace', 'resourceType', 'groupId', 'resourceIds', 'limit', 'unit', 'per', 'timeZone', 'createdBy', 'createdAt'];

// The service's clock stands at Monday 2027-01-04 08:00Z: "today" is that Monday.
describe('quotas over HTTP', function () {
  this.timeout(60_000);
  let server: TestServer;
  let admin: string;
  let counter = 0;
  const tokens = new Map<string, string>();
  /** An LV4 token of a booker of its own per test, so that no test sees another's usage. */
  const booker = (name: string) => {
    if (!tokens.has(name)) tokens.set(name, server.token({ level: 'LV4', sub: name }));
    return tokens.get(name)!;
  };
  const freshZone = async (extra: Record<string, unknown> = {}) => {
    counter += 1;
    const zoneId = `quota-zone-${counter}`;
    return { zoneId, id: await registerZone(server, zoneId, extra) };
  };
  const createQuota = (body: Record<string, unknown>, token = admin) => server.request('POST', '/booking/v1/quotas', { body, token });
  const book = (zoneId: string, start: string, end: string, token: string) =>
    server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end), token });
  const today = (hm: string) => `2027-01-04T${hm}:00Z`;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    admin = server.token({ level: 'LV2', sub: 'admin' });
  });
  after(() => server.stop());

  afterEach(async () => {
    // Quotas span the workspace: each test starts without any.
    const list = await server.request('GET', '/booking/v1/quotas?limit=100', { token: admin });
    for (const quota of list.body.data) await server.request('DELETE', `/booking/v1/quotas/${quota.id}`, { token: admin });
  });

  describe('create, list, delete', () => {
    it('POST → 201 with the record; GET lists it in the page envelope; DELETE → 204, then 404', async () => {
      const { id: zone } = await freshZone();
      const created = await createQuota({ resourceIds: [zone], limit: 1.5, unit: 'hours', per: 'week', timeZone: 'Europe/Berlin' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.have.all.keys(quotaFields);
      expect(created.body).to.deep.include({
        workspace: server.workspace,
        resourceType: null,
        groupId: null,
        resourceIds: [zone],
        limit: 1.5,
        unit: 'hours',
        per: 'week',
        timeZone: 'Europe/Berlin',
        createdBy: 'admin',
      });
      const everyone = await server.request('GET', '/booking/v1/quotas', { token: server.token({ level: 'LV5', sub: 'guest' }) });
      expect(everyone.status).to.equal(200);
      expect(everyone.body).to.deep.equal({ data: [created.body], count: 1, total: 1, page: 1, pageCount: 1 });

      expect((await server.request('DELETE', `/booking/v1/quotas/${created.body.id}`, { token: admin })).status).to.equal(204);
      expect((await server.request('GET', '/booking/v1/quotas', { token: admin })).body.total).to.equal(0);
      expect((await server.request('DELETE', `/booking/v1/quotas/${created.body.id}`, { token: admin })).status).to.equal(404);
    });

    it('LV3–LV5 may not create or delete (403)', async () => {
      const created = await createQuota({ limit: 2, unit: 'bookings', per: 'day' });
      for (const level of ['LV3', 'LV4', 'LV5'] as const) {
        const token = server.token({ level, sub: `someone-${level}` });
        const post = await createQuota({ limit: 2, unit: 'bookings', per: 'day' }, token);
        expect(post.status).to.equal(403);
        expect(post.body).to.include({ statusCode: 403 });
        expect((await server.request('DELETE', `/booking/v1/quotas/${created.body.id}`, { token })).status).to.equal(403);
      }
      expect((await server.request('GET', '/booking/v1/quotas', { token: admin })).body.total).to.equal(1);
    });

    it('a quota of another workspace is not found; LV2 may not name another workspace', async () => {
      const otherWorkspace = randomUUID();
      const otherAdmin = server.token({ level: 'LV2', sub: 'other-admin', workspace: otherWorkspace });
      const theirs = await createQuota({ limit: 2, unit: 'bookings', per: 'day' }, otherAdmin);
      expect(theirs.status).to.equal(201);
      expect((await server.request('DELETE', `/booking/v1/quotas/${theirs.body.id}`, { token: admin })).status).to.equal(404);
      expect((await server.request('GET', '/booking/v1/quotas', { token: admin })).body.total).to.equal(0);
      expect((await createQuota({ workspace: otherWorkspace, limit: 2, unit: 'bookings', per: 'day' })).status).to.equal(400);
      const root = server.token({ level: 'LV1', sub: 'root' });
      const listed = await server.request('GET', `/booking/v1/quotas?workspace=${otherWorkspace}`, { token: root });
      expect(listed.body.data.map((q: { id: string }) => q.id)).to.deep.equal([theirs.body.id]);
      expect((await server.request('DELETE', `/booking/v1/quotas/${theirs.body.id}`, { token: root })).status).to.equal(204);
    });
  });

  describe('bad input', () => {
    const refused = async (body: Record<string, unknown>, status: number, field?: string) => {
      const res = await createQuota(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.statusCode).to.equal(status);
      if (field) expect(res.body.message).to.contain(field);
      expect((await server.request('GET', '/booking/v1/quotas', { token: admin })).body.total).to.equal(0);
    };

    it('limit ≤ 0, an unknown unit or period, a zone that does not exist → 400 naming the field', async () => {
      await refused({ limit: 0, unit: 'hours', per: 'day' }, 400, 'limit');
      await refused({ limit: -3, unit: 'hours', per: 'day' }, 400, 'limit');
      await refused({ limit: 1.5, unit: 'bookings', per: 'day' }, 400, 'limit');
      await refused({ limit: 3, unit: 'minutes', per: 'day' }, 400, 'unit');
      await refused({ limit: 3, unit: 'hours', per: 'year' }, 400, 'per');
      await refused({ limit: 3, unit: 'hours', per: 'day', timeZone: 'Mars/Olympus_Mons' }, 400, 'timeZone');
      await refused({ limit: 3, unit: 'hours' }, 400, 'per');
    });

    it('resourceIds unknown or of another workspace → 404, nothing stored', async () => {
      const { id: mine } = await freshZone();
      await refused({ resourceIds: [mine, randomUUID()], limit: 3, unit: 'hours', per: 'day' }, 404);
      const otherWorkspace = randomUUID();
      await seedZone(server.database.db, otherWorkspace, 'foreign-zone');
      const foreign = await server.request('POST', '/booking/v1/resources', {
        body: { resourceType: 'zone', resourceId: 'foreign-zone' },
        token: server.token({ level: 'LV2', sub: 'other-admin', workspace: otherWorkspace }),
      });
      expect(foreign.status).to.equal(201);
      await refused({ resourceIds: [foreign.body.id], limit: 3, unit: 'hours', per: 'day' }, 404);
    });
  });

  describe('refusing bookings', () => {
    it('one booker’s creates on several resources add up; past the limit → 422 policy quota with quotaId; others book on', async () => {
      const [a, b, c] = [await freshZone(), await freshZone(), await freshZone()];
      const quota = await createQuota({ limit: 2, unit: 'hours', per: 'day' });
      const alice = booker('alice-1');
      expect((await book(a.zoneId, today('09:00'), today('10:00'), alice)).status).to.equal(201);
      expect((await book(b.zoneId, today('11:00'), today('12:00'), alice)).status).to.equal(201);
      const over = await book(c.zoneId, today('13:00'), today('13:30'), alice);
      expect(over.status).to.equal(422);
      expect(over.body).to.include({ statusCode: 422, policy: 'quota', quotaId: quota.body.id });
      // Another day, another period; another booker, another usage.
      expect((await book(c.zoneId, '2027-01-05T13:00:00Z', '2027-01-05T14:00:00Z', alice)).status).to.equal(201);
      expect((await book(c.zoneId, today('13:00'), today('15:00'), booker('bob-1'))).status).to.equal(201);
    });

    it('counts only the matching resources, and a cancelled booking no longer', async () => {
      const grouped = await freshZone();
      await server.request('PATCH', `/booking/v1/resources/${grouped.id}`, { body: { groupId: 'g-quota' }, token: admin });
      const free = await freshZone();
      await createQuota({ groupId: 'g-quota', resourceType: 'zone', limit: 1, unit: 'bookings', per: 'week' });
      const carol = booker('carol-1');
      const first = await book(grouped.zoneId, today('09:00'), today('10:00'), carol);
      expect(first.status).to.equal(201);
      expect((await book(free.zoneId, today('09:00'), today('10:00'), carol)).status).to.equal(201);
      expect((await book(grouped.zoneId, '2027-01-08T09:00:00Z', '2027-01-08T10:00:00Z', carol)).body.policy).to.equal('quota');
      expect((await server.request('PATCH', `/booking/v1/bookings/${first.body.id}/cancel`, { token: carol, body: {} })).status).to.equal(200);
      expect((await book(grouped.zoneId, '2027-01-08T09:00:00Z', '2027-01-08T10:00:00Z', carol)).status).to.equal(201);
    });

    it('a reschedule does not count its own old times, but refuses going past the limit', async () => {
      const a = await freshZone();
      const b = await freshZone();
      const quota = await createQuota({ limit: 3, unit: 'hours', per: 'day' });
      const dave = booker('dave-1');
      const one = await book(a.zoneId, today('09:00'), today('11:00'), dave);
      expect((await book(b.zoneId, today('12:00'), today('13:00'), dave)).status).to.equal(201);
      const moved = await server.request('PATCH', `/booking/v1/bookings/${one.body.id}`, { token: dave, body: { startTime: today('14:00'), endTime: today('16:00') } });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      const longer = await server.request('PATCH', `/booking/v1/bookings/${one.body.id}`, { token: dave, body: { endTime: today('16:30') } });
      expect(longer.status).to.equal(422);
      expect(longer.body).to.include({ policy: 'quota', quotaId: quota.body.id });
    });

    it('a series: occurrences add up per period; nothing stored when one period overflows', async () => {
      const a = await freshZone();
      const quota = await createQuota({ limit: 2, unit: 'bookings', per: 'week' });
      const erin = booker('erin-1');
      const series = (start: string, end: string, rule: string) =>
        server.request('POST', '/booking/v1/bookings/bulk', { body: { ...bookingBody(a.zoneId, start, end), recurrenceRule: rule }, token: erin });
      // Mondays and Wednesdays: two a week fit.
      const fits = await series('2027-01-11T09:00:00Z', '2027-01-11T10:00:00Z', 'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4');
      expect(fits.status, JSON.stringify(fits.body)).to.equal(201);
      // A third in the week of 2027-01-18 does not.
      const over = await series('2027-01-19T09:00:00Z', '2027-01-19T10:00:00Z', 'FREQ=DAILY;COUNT=3');
      expect(over.status).to.equal(422);
      expect(over.body).to.include({ policy: 'quota', quotaId: quota.body.id });
      const stored = await server.database.db.selectFrom('bookings').select('id').where('booker_profile_id', '=', 'erin-1').execute();
      expect(stored).to.have.length(5);
    });
    it('a series booked on behalf counts and holds the named booker’s quota', async () => {
      const a = await freshZone();
      const b = await freshZone();
      const quota = await createQuota({ limit: 2, unit: 'bookings', per: 'week' });
      expect((await book(b.zoneId, '2027-01-12T12:00:00Z', '2027-01-12T12:30:00Z', booker('gus-1'))).status).to.equal(201);
      const series = (count: number) =>
        server.request('POST', '/booking/v1/bookings/bulk', {
          body: { ...bookingBody(a.zoneId, '2027-01-11T09:00:00Z', '2027-01-11T10:00:00Z'), recurrenceRule: `FREQ=DAILY;COUNT=${count}`, bookerProfileId: 'gus-1' },
          token: admin,
        });
      const over = await series(2);
      expect(over.status).to.equal(422);
      expect(over.body).to.include({ policy: 'quota', quotaId: quota.body.id });
      const fits = await series(1);
      expect(fits.status, JSON.stringify(fits.body)).to.equal(201);
      expect(fits.body.occurrences[0]).to.include({ bookerProfileId: 'gus-1', createdBy: 'admin' });
    });

    it('a series change: its own moved occurrences do not count against themselves; past the limit → 422 quota, nothing changed', async () => {
      const a = await freshZone();
      const b = await freshZone();
      const quota = await createQuota({ limit: 2, unit: 'hours', per: 'week' });
      const fay = booker('fay-1');
      const created = await server.request('POST', '/booking/v1/bookings/bulk', {
        body: { ...bookingBody(a.zoneId, '2027-01-11T09:00:00Z', '2027-01-11T10:00:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=3' },
        token: fay,
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect((await book(b.zoneId, '2027-01-19T12:00:00Z', '2027-01-19T12:30:00Z', fay)).status).to.equal(201);
      const patch = (endTime: string) => server.request('PATCH', `/booking/v1/bookings/series/${created.body.parent.id}`, { body: { endTime }, token: fay });
      // 1.5 hours each: 2 in the week of the other booking, had the old hour not left the count.
      const longer = await patch('2027-01-11T10:30:00Z');
      expect(longer.status, JSON.stringify(longer.body)).to.equal(200);
      const over = await patch('2027-01-11T11:00:00Z');
      expect(over.status).to.equal(422);
      expect(over.body).to.include({ policy: 'quota', quotaId: quota.body.id });
      expect(over.body.message).to.contain('2027-01-18T09:00:00Z');
      const ends = await server.database.db
        .selectFrom('bookings')
        .select('end_time')
        .where('recurrence_parent_id', '=', created.body.parent.id)
        .orderBy('start_time')
        .execute();
      expect(ends.map((row) => row.end_time.toISOString())).to.deep.equal(['2027-01-11T10:30:00.000Z', '2027-01-18T10:30:00.000Z', '2027-01-25T10:30:00.000Z']);
    });
  });

  describe('usage', () => {
    it('answers the current period of each quota for the caller, or for the named booker (admins only)', async () => {
      const a = await freshZone();
      const daily = await createQuota({ limit: 4, unit: 'hours', per: 'day' });
      const monthly = await createQuota({ limit: 10, unit: 'bookings', per: 'month', timeZone: 'Europe/Berlin' });
      const frank = booker('frank-1');
      await book(a.zoneId, today('09:00'), today('10:30'), frank);
      await book(a.zoneId, today('11:00'), today('11:20'), frank);
      await book(a.zoneId, '2027-01-20T09:00:00Z', '2027-01-20T10:00:00Z', frank);
      // Quotas made in the same instant (the clock stands still) come in no set order.
      const matches = (body: { bookerProfileId: string; usage: unknown[] }) => {
        expect(body.bookerProfileId).to.equal('frank-1');
        expect(body.usage).to.have.deep.members(expected);
      };
      const expected = [
          { quotaId: daily.body.id, periodStart: '2027-01-04T00:00:00Z', periodEnd: '2027-01-05T00:00:00Z', used: 1.833333, limit: 4, unit: 'hours' },
          { quotaId: monthly.body.id, periodStart: '2026-12-31T23:00:00Z', periodEnd: '2027-01-31T23:00:00Z', used: 3, limit: 10, unit: 'bookings' },
      ];
      const own = await server.request('GET', '/booking/v1/quotas/usage', { token: frank });
      expect(own.status).to.equal(200);
      matches(own.body);
      matches((await server.request('GET', '/booking/v1/quotas/usage?bookerProfileId=frank-1', { token: admin })).body);
      expect((await server.request('GET', '/booking/v1/quotas/usage?bookerProfileId=frank-1', { token: frank })).status).to.equal(200);
      const others = await server.request('GET', '/booking/v1/quotas/usage?bookerProfileId=frank-1', { token: booker('gina-1') });
      expect(others.status).to.equal(403);
      expect((await server.request('GET', '/booking/v1/quotas/usage?bookerProfileId=frank-1', { token: server.token({ level: 'LV5', sub: 'g' }) })).status).to.equal(403);
    });
  });

  it('quotas survive a rebuild of the read models', async () => {
    const kept = await createQuota({ limit: 2, unit: 'bookings', per: 'day' });
    const dropped = await createQuota({ limit: 3, unit: 'bookings', per: 'day' });
    await server.request('DELETE', `/booking/v1/quotas/${dropped.body.id}`, { token: admin });
    await rebuildReadModels(server.database.db, server.services.config);
    const listed = await server.request('GET', '/booking/v1/quotas', { token: admin });
    expect(listed.body.data).to.deep.equal([kept.body]);
  });
});
