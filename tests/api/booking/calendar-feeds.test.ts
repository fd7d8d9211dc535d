import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import ICAL from 'ical.js';
import { seedZone } from '../../support/device-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from './booking-api.js';

type Vevent = { uid: string; start: Date; end: Date; startIsUtc: boolean; endIsUtc: boolean; summary: string; status: string; sequence: number; location: string; lastModified: Date };

/** The VEVENTs of a feed as ical.js (an independent RFC 5545 parser) reads them, by UID. */
function parseFeed(text: string): Map<string, Vevent> {
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).to.equal('vcalendar');
  const events = new Map<string, Vevent>();
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const time = (name: string) => vevent.getFirstPropertyValue(name) as ICAL.Time;
    const uid = String(vevent.getFirstPropertyValue('uid'));
    events.set(uid, {
      uid,
      start: time('dtstart').toJSDate(),
      end: time('dtend').toJSDate(),
      startIsUtc: time('dtstart').zone === ICAL.Timezone.utcTimezone,
      endIsUtc: time('dtend').zone === ICAL.Timezone.utcTimezone,
      summary: String(vevent.getFirstPropertyValue('summary')),
      status: String(vevent.getFirstPropertyValue('status')),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      location: String(vevent.getFirstPropertyValue('location')),
      lastModified: time('last-modified').toJSDate(),
    });
  }
  return events;
}

const uidOf = (bookingId: string) => `${bookingId}@workspace-booking`;

describe('calendar feeds (contract §18)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;
  let zone: string;
  let otherZone: string;
  const ids = {} as Record<'tooOld' | 'recent' | 'cancelledLongAgo' | 'pending' | 'confirmed' | 'cancelled' | 'lateInWindow' | 'beyondWindow' | 'elsewhere', string>;
  // Wide and multi-byte: folded lines must still be at most 75 octets.
  const longTitle = `Quartalsplanung für Ärzte & Zahnärzte; Köln, Düsseldorf — ${'ü'.repeat(40)}`;

  const create = async (start: string, end: string, token: string, title: string, zoneId = 'zone-cal') => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start, end, { title }), token });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const patch = async (id: string, action: string, token: string, body?: unknown) => {
    const res = await server.request('PATCH', `/booking/v1/bookings/${id}${action ? `/${action}` : ''}`, { token, body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  const resourceFeed = (token: string | null, headers: Record<string, string> = {}, query = '', resource = zone) =>
    server.request('GET', `/booking/v1/resources/${resource}/calendar.ics${query}`, { token, headers });
  const ownFeed = (token: string | null, query = '') => server.request('GET', `/booking/v1/bookings/calendar.ics${query}`, { token });
  const createFeed = async (token: string, body: Record<string, unknown> = {}) => {
    const res = await server.request('POST', '/booking/v1/calendar-feeds', { body, token });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body as { id: string; bookableResourceId: string | null; url: string; token: string };
  };
  const getUrl = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { headers });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  const expect401 = (res: { status: number; body: any }) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(401);
    expect(res.body.statusCode).to.equal(401);
    expect(res.body.message).to.be.a('string');
  };

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice' });
    bob = server.token({ level: 'LV4', sub: 'bob' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    zone = await registerZone(server, 'zone-cal', { bookingPolicy: { autoConfirm: false, maxAdvanceDays: 365 } });
    otherZone = await registerZone(server, 'zone-other');

    // Made on New Year's day, read on 2027-02-11 (the window runs from 2027-01-12 to 2027-08-10).
    setClock(server, '2027-01-01T08:00:00Z');
    ids.tooOld = await create('2027-01-05T09:00:00Z', '2027-01-05T10:00:00Z', alice, 'Long past');
    ids.recent = await create('2027-01-20T09:00:00Z', '2027-01-20T10:00:00Z', alice, 'Recent');
    await patch(ids.recent, 'confirm', admin);
    ids.cancelledLongAgo = await create('2027-03-01T09:00:00Z', '2027-03-01T10:00:00Z', alice, 'Cancelled long ago');
    await patch(ids.cancelledLongAgo, 'cancel', alice, {});

    setClock(server, '2027-02-11T08:00:00Z');
    ids.pending = await create('2027-02-15T09:00:00Z', '2027-02-15T10:00:00Z', alice, longTitle);
    ids.confirmed = await create('2027-02-16T09:00:00Z', '2027-02-16T10:00:00Z', bob, 'Bob’s review');
    await patch(ids.confirmed, 'confirm', admin);
    ids.cancelled = await create('2027-02-17T09:00:00Z', '2027-02-17T10:00:00Z', alice, 'Cancelled today');
    await patch(ids.cancelled, 'cancel', alice, {});
    ids.lateInWindow = await create('2027-08-01T09:00:00Z', '2027-08-01T10:00:00Z', alice, 'Summer');
    ids.beyondWindow = await create('2027-08-20T09:00:00Z', '2027-08-20T10:00:00Z', alice, 'Too far');
    ids.elsewhere = await create('2027-02-18T09:00:00Z', '2027-02-18T10:00:00Z', alice, 'Elsewhere', 'zone-other');
  });
  after(() => server.stop());

  describe('the resource feed', () => {
    it('is text/calendar with one VEVENT per booking of the window, in UTC, with status, location and title', async () => {
      const res = await resourceFeed(admin);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
      const events = parseFeed(res.body);
      expect([...events.keys()]).to.have.members([ids.recent, ids.pending, ids.confirmed, ids.cancelled, ids.lateInWindow].map(uidOf));
      const pending = events.get(uidOf(ids.pending))!;
      expect(pending).to.include({ summary: longTitle, status: 'TENTATIVE', location: 'Zone zone-cal', sequence: 0, startIsUtc: true, endIsUtc: true });
      expect(pending.start.toISOString()).to.equal('2027-02-15T09:00:00.000Z');
      expect(pending.end.toISOString()).to.equal('2027-02-15T10:00:00.000Z');
      expect(events.get(uidOf(ids.confirmed))).to.include({ summary: 'Bob’s review', status: 'CONFIRMED' });
      expect(events.get(uidOf(ids.cancelled))).to.include({ summary: 'Cancelled today', status: 'CANCELLED' });
      // Past bookings stay (confirmed, or moved on by the system since: still held time).
      expect(events.get(uidOf(ids.recent))!.status).to.be.oneOf(['CONFIRMED', 'CANCELLED']);
      expect(res.body).to.match(/\r\nDTSTART:20270215T090000Z\r\n/);
      expect(res.body).to.match(/\r\nDTSTAMP:\d{8}T\d{6}Z\r\n/);
    });

    it('shows another user’s booking as Busy to LV4, its own with the title', async () => {
      const events = parseFeed((await resourceFeed(bob)).body);
      expect(events.get(uidOf(ids.pending))!.summary).to.equal('Busy');
      expect(events.get(uidOf(ids.cancelled))!.summary).to.equal('Busy');
      expect(events.get(uidOf(ids.confirmed))!.summary).to.equal('Bob’s review');
      expect(parseFeed((await resourceFeed(alice)).body).get(uidOf(ids.pending))!.summary).to.equal(longTitle);
    });

    it('ends every line in CRLF and folds at 75 octets', async () => {
      const text = (await resourceFeed(admin)).body as string;
      expect(text.endsWith('\r\n')).to.equal(true);
      const lines = text.slice(0, -2).split('\r\n');
      for (const line of lines) {
        expect(line, JSON.stringify(line)).to.not.match(/[\r\n]/);
        expect(Buffer.byteLength(line), line).to.be.at.most(75);
      }
      expect(lines.some((line) => line.startsWith(' ')), 'the long title is folded').to.equal(true);
    });

    it('grows SEQUENCE and LAST-MODIFIED after a reschedule', async () => {
      const before = parseFeed((await resourceFeed(admin)).body).get(uidOf(ids.lateInWindow))!;
      setClock(server, '2027-02-11T09:30:00Z');
      await patch(ids.lateInWindow, '', alice, { startTime: '2027-08-02T09:00:00Z', endTime: '2027-08-02T11:00:00Z' });
      const after = parseFeed((await resourceFeed(admin)).body).get(uidOf(ids.lateInWindow))!;
      expect(after.sequence).to.be.greaterThan(before.sequence);
      expect(after.lastModified.getTime()).to.be.greaterThan(before.lastModified.getTime());
      expect(after.start.toISOString()).to.equal('2027-08-02T09:00:00.000Z');
      setClock(server, '2027-02-11T08:00:00Z');
    });

    it('grows SEQUENCE with every change, even several within one second (RFC 5545 §3.8.7.4)', async () => {
      const sameSecond = await registerZone(server, 'zone-sequence', { bookingPolicy: { autoConfirm: false, maxAdvanceDays: 365 } });
      const id = await create('2027-03-10T09:00:00Z', '2027-03-10T10:00:00Z', bob, 'Moved twice', 'zone-sequence');
      const sequence = async () => parseFeed((await resourceFeed(admin, {}, '', sameSecond)).body).get(uidOf(id))!.sequence;
      const seen = [await sequence()];
      await patch(id, '', bob, { startTime: '2027-03-10T11:00:00Z', endTime: '2027-03-10T12:00:00Z' });
      seen.push(await sequence());
      await patch(id, 'confirm', admin);
      seen.push(await sequence());
      await patch(id, '', bob, { startTime: '2027-03-10T13:00:00Z', endTime: '2027-03-10T14:00:00Z' });
      seen.push(await sequence());
      expect(seen).to.deep.equal([0, 1, 2, 3]);
    });

    it('answers an ETag, then 304 while nothing changed, and a new tag after a change', async () => {
      const first = await resourceFeed(admin);
      const tag = first.headers.get('etag')!;
      expect(tag).to.match(/^"[^"]+"$/);
      const again = await resourceFeed(admin, { 'if-none-match': tag });
      expect(again.status).to.equal(304);
      expect(again.body).to.equal(null);
      expect(again.headers.get('etag')).to.equal(tag);
      expect((await resourceFeed(admin, { 'if-none-match': `"x", W/${tag}` })).status).to.equal(304);
      // Another reader sees other titles: another tag.
      expect((await resourceFeed(bob, { 'if-none-match': tag })).status).to.equal(200);
      // A booking elsewhere leaves the feed as it was.
      await create('2027-02-19T09:00:00Z', '2027-02-19T10:00:00Z', bob, 'Not here', 'zone-other');
      expect((await resourceFeed(admin, { 'if-none-match': tag })).status).to.equal(304);
      const added = await create('2027-02-19T09:00:00Z', '2027-02-19T10:00:00Z', bob, 'Here');
      const changed = await resourceFeed(admin, { 'if-none-match': tag });
      expect(changed.status).to.equal(200);
      expect(changed.headers.get('etag')).to.not.equal(tag);
      expect(parseFeed(changed.body).has(uidOf(added))).to.equal(true);
      expect((await resourceFeed(admin)).body).to.equal(changed.body);
    });

    it('answers 404 for an unknown resource and 401 without credentials', async () => {
      expect((await resourceFeed(admin, {}, '', randomUUID())).status).to.equal(404);
      expect401(await resourceFeed(null));
    });
  });

  describe('the own-bookings feed', () => {
    it('lists the caller’s bookings on every resource, with titles, and nobody else’s', async () => {
      const res = await ownFeed(alice);
      expect(res.status).to.equal(200);
      const events = parseFeed(res.body);
      expect([...events.keys()]).to.include.members([ids.pending, ids.cancelled, ids.elsewhere, ids.recent].map(uidOf));
      expect(events.has(uidOf(ids.confirmed))).to.equal(false);
      expect(events.has(uidOf(ids.tooOld))).to.equal(false);
      expect(events.has(uidOf(ids.cancelledLongAgo))).to.equal(false);
      expect(events.has(uidOf(ids.beyondWindow))).to.equal(false);
      // zone-other confirms on creation.
      expect(events.get(uidOf(ids.elsewhere))).to.include({ summary: 'Elsewhere', location: 'Zone zone-other', status: 'CONFIRMED' });
      const tag = res.headers.get('etag')!;
      expect((await server.request('GET', '/booking/v1/bookings/calendar.ics', { token: alice, headers: { 'if-none-match': tag } })).status).to.equal(304);
    });
  });

  describe('feed tokens', () => {
    it('create, list and revoke: the URL reads as its creator until revoked, then answers 401', async () => {
      const feed = await createFeed(bob, { bookableResourceId: zone });
      expect(feed.bookableResourceId).to.equal(zone);
      expect(feed.token).to.match(/^wbcal_[A-Za-z0-9_-]{43}$/);
      expect(feed.url).to.equal(`${server.url}/booking/v1/resources/${zone}/calendar.ics?token=${feed.token}`);

      const read = await getUrl(feed.url);
      expect(read.status).to.equal(200);
      expect(read.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
      const events = parseFeed(read.text);
      expect(events.get(uidOf(ids.pending))!.summary).to.equal('Busy');
      expect(events.get(uidOf(ids.confirmed))!.summary).to.equal('Bob’s review');
      expect((await getUrl(feed.url, { 'if-none-match': read.headers.get('etag')! })).status).to.equal(304);

      const listed = await server.request('GET', '/booking/v1/calendar-feeds', { token: bob });
      expect(listed.status).to.equal(200);
      expect(listed.body).to.include({ page: 1 });
      expect(listed.body.data.map((f: { id: string }) => f.id)).to.include(feed.id);
      expect(listed.body.data[0]).to.have.keys('id', 'bookableResourceId', 'createdAt');
      expect((await server.request('GET', '/booking/v1/calendar-feeds', { token: alice })).body.data.map((f: { id: string }) => f.id)).to.not.include(feed.id);

      expect((await server.request('DELETE', `/booking/v1/calendar-feeds/${feed.id}`, { token: alice })).status).to.equal(404);
      expect((await server.request('DELETE', `/booking/v1/calendar-feeds/${feed.id}`, { token: bob })).status).to.equal(204);
      expect((await server.request('DELETE', `/booking/v1/calendar-feeds/${feed.id}`, { token: bob })).status).to.equal(404);
      const revoked = await getUrl(feed.url);
      expect(revoked.status).to.equal(401);
      expect(JSON.parse(revoked.text)).to.include({ statusCode: 401 });
      expect((await server.request('GET', '/booking/v1/calendar-feeds', { token: bob })).body.data.map((f: { id: string }) => f.id)).to.not.include(feed.id);
    });

    it('an own-bookings feed token reads its creator’s bookings', async () => {
      const feed = await createFeed(alice);
      expect(feed.bookableResourceId).to.equal(null);
      expect(feed.url).to.equal(`${server.url}/booking/v1/bookings/calendar.ics?token=${feed.token}`);
      const read = await getUrl(feed.url);
      expect(read.status).to.equal(200);
      expect(parseFeed(read.text).get(uidOf(ids.elsewhere))!.summary).to.equal('Elsewhere');
    });

    it('refuses a resource of another workspace or an unknown one with 404, and a body field it does not know with 400', async () => {
      expect((await server.request('POST', '/booking/v1/calendar-feeds', { body: { bookableResourceId: randomUUID() }, token: bob })).status).to.equal(404);
      expect((await server.request('POST', '/booking/v1/calendar-feeds', { body: { bookableResourceId: 'zone-cal' }, token: bob })).status).to.equal(400);
      expect((await server.request('POST', '/booking/v1/calendar-feeds', { body: { ownerSub: 'alice' }, token: bob })).status).to.equal(400);
    });

    it('opens only the feed it was made for', async () => {
      const feed = await createFeed(bob, { bookableResourceId: zone });
      expect401(await resourceFeed(null, {}, `?token=${feed.token}`, otherZone));
      expect401(await ownFeed(null, `?token=${feed.token}`));
      const own = await createFeed(bob);
      expect401(await resourceFeed(null, {}, `?token=${own.token}`));
      // The feed token wins over a bearer sent with it.
      expect401(await resourceFeed(admin, {}, `?token=${own.token}`));
    });

    it('answers 401 to a malformed, unknown or another workspace’s token', async () => {
      for (const token of ['nonsense', 'wbcal_short', `wbcal_${'A'.repeat(43)}`, '']) {
        expect401(await resourceFeed(null, {}, `?token=${encodeURIComponent(token)}`));
      }
      expect401(await resourceFeed(null, {}, `?token=a&token=b`));
      const elsewhere = randomUUID();
      await seedZone(server.database.db, elsewhere, 'zone-far');
      const farAdmin = server.token({ level: 'LV2', sub: 'far-admin', workspace: elsewhere });
      const registered = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'zone-far' }, token: farAdmin });
      expect(registered.status).to.equal(201);
      // Another workspace's resource is not one a caller here may make a feed of.
      expect((await server.request('POST', '/booking/v1/calendar-feeds', { body: { bookableResourceId: registered.body.id }, token: bob })).status).to.equal(404);
      const far = await createFeed(farAdmin, { bookableResourceId: registered.body.id });
      expect((await getUrl(far.url)).status).to.equal(200);
      expect401(await resourceFeed(null, {}, `?token=${far.token}`));
      expect401(await ownFeed(null, `?token=${far.token}`));
    });

    it('is read-only: a write with it, as bearer or in the query, answers 401 and writes nothing', async () => {
      const feed = await createFeed(alice, { bookableResourceId: zone });
      const body = bookingBody('zone-cal', '2027-03-10T09:00:00Z', '2027-03-10T10:00:00Z', { title: 'By feed token' });
      expect401(await server.request('POST', '/booking/v1/bookings', { body, token: feed.token }));
      expect401(await server.request('POST', `/booking/v1/bookings?token=${feed.token}`, { body, token: null }));
      expect401(await server.request('POST', `/booking/v1/bookings?token=${feed.token}`, { body, token: alice }));
      expect401(await server.request('PATCH', `/booking/v1/bookings/${ids.pending}?token=${feed.token}`, { body: { title: 'x' }, token: null }));
      expect401(await server.request('PATCH', `/booking/v1/bookings/${ids.pending}`, { body: { title: 'x' }, token: feed.token }));
      expect401(await server.request('POST', `/booking/v1/calendar-feeds?token=${feed.token}`, { body: {}, token: null }));
      expect401(await server.request('DELETE', `/booking/v1/calendar-feeds/${feed.id}?token=${feed.token}`, { token: null }));
      expect401(await server.request('GET', `/booking/v1/bookings?token=${feed.token}`, { token: null }));
      const listed = await server.request('GET', '/booking/v1/bookings?limit=100', { token: alice });
      expect(listed.body.data.map((b: { title: string }) => b.title)).to.not.include('By feed token');
      expect((await server.request('GET', `/booking/v1/bookings/${ids.pending}`, { token: alice })).body.title).to.equal(longTitle);
      expect((await getUrl(feed.url)).status).to.equal(200);
    });
  });
});
