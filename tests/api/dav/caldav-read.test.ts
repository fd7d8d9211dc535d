import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import ICAL from 'ical.js';
import { completeBooking, markNoShow } from '../../../src/commands/booking/system-moves.js';
import { renameResource } from '../../../src/commands/device/rename-resource.js';
import { seedZone } from '../../support/device-records.js';
import { mintToken } from '../../support/test-keys.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';
import { C, D, calendarQueryBody, child, davRequest, hrefsIn, prop, propfindBody, syncBody, type DavAnswer } from './dav-requests.js';

const WB = 'urn:workspace-booking';
const CS = 'http://calendarserver.org/ns/';

/** The X-BOOKING-ID, times and summary of each object's VEVENT, by booking id. */
function eventsOf(answer: DavAnswer): Map<string, { start: string; end: string; summary: string; status: string }> {
  const events = new Map<string, { start: string; end: string; summary: string; status: string }>();
  for (const member of answer.members) {
    const data = prop(member, C, 'calendar-data');
    if (!data) continue;
    const vevent = new ICAL.Component(ICAL.parse(data.text)).getFirstSubcomponent('vevent')!;
    const time = (name: string) => (vevent.getFirstPropertyValue(name) as ICAL.Time).toJSDate().toISOString();
    events.set(String(vevent.getFirstPropertyValue('x-booking-id')), {
      start: time('dtstart'),
      end: time('dtend'),
      summary: String(vevent.getFirstPropertyValue('summary')),
      status: String(vevent.getFirstPropertyValue('status')),
    });
  }
  return events;
}

describe('CalDAV read side (contract §25)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;
  let room: string;
  let otherRoom: string;
  let foreignRoom: string;
  let inactive: string;
  const ids: string[] = [];

  const create = async (token: string, start: string, end: string, title: string, zone = 'room-a') => {
    const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zone, start, end, { title }), token });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as string;
  };
  const roomCalendar = (id = room) => `/dav/calendars/resources/${id}/bookings/`;

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    room = await registerZone(server, 'room-a', { capacity: 8 });
    otherRoom = await registerZone(server, 'room-b');
    inactive = await registerZone(server, 'room-closed');
    expect((await server.request('PATCH', `/booking/v1/resources/${inactive}`, { body: { isActive: false } })).status).to.equal(200);
    const foreignWorkspace = randomUUID();
    await seedZone(server.database.db, foreignWorkspace, 'room-foreign');
    const foreign = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: 'room-foreign' }, token: mintToken({ workspace: foreignWorkspace }) });
    expect(foreign.status).to.equal(201);
    foreignRoom = foreign.body.id;
    setClock(server, '2027-03-01T08:00:00Z');
    ids.push(await create(alice, '2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z', 'Alice plans'));
    ids.push(await create(bob, '2027-03-03T09:00:00Z', '2027-03-03T10:00:00Z', 'Bob reviews'));
    ids.push(await create(alice, '2027-03-20T14:00:00Z', '2027-03-20T15:30:00Z', 'Alice again'));
    ids.push(await create(alice, '2027-04-02T09:00:00Z', '2027-04-02T10:00:00Z', 'April'));
    await create(alice, '2027-03-02T09:00:00Z', '2027-03-02T10:00:00Z', 'Elsewhere', 'room-b');
  });
  after(() => server.stop());

  describe('discovery', () => {
    it('sends the bare well-known URL to /dav/, without credentials', async () => {
      for (const method of ['GET', 'PROPFIND']) {
        const res = await davRequest(server, method, '/.well-known/caldav', { token: null });
        expect(res.status).to.equal(301);
        expect(res.headers.get('location')).to.equal('/dav/');
      }
    });

    it('answers OPTIONS anywhere under /dav/ with the DAV header and Allow; other methods outside Allow are 405', async () => {
      const options = await davRequest(server, 'OPTIONS', roomCalendar(), { token: null });
      expect(options.status).to.equal(200);
      expect(options.headers.get('dav')).to.equal('1, 3, access-control, calendar-access, calendar-auto-schedule');
      expect(options.headers.get('allow')).to.include('REPORT');
      const patch = await davRequest(server, 'PATCH', roomCalendar());
      expect(patch.status).to.equal(405);
      expect(patch.headers.get('allow')).to.equal(options.headers.get('allow'));
    });

    it('finds the caller’s principal, its home, inbox and outbox from /dav/', async () => {
      const root = await davRequest(server, 'PROPFIND', '/dav/', { depth: '0', token: alice, body: propfindBody('<d:current-user-principal/>') });
      expect(root.status).to.equal(207);
      expect(root.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
      const principalUrl = hrefsIn(prop(root.members[0], D, 'current-user-principal'))[0];
      expect(principalUrl).to.equal('/dav/principals/users/alice/');
      const principal = await davRequest(server, 'PROPFIND', principalUrl!, {
        depth: '0',
        token: alice,
        body: propfindBody('<d:displayname/><c:calendar-home-set/><c:schedule-inbox-URL/><c:schedule-outbox-URL/><c:calendar-user-address-set/><d:no-such-thing/>'),
      });
      const member = principal.members[0]!;
      expect(hrefsIn(prop(member, C, 'calendar-home-set'))).to.deep.equal(['/dav/calendars/users/alice/']);
      expect(hrefsIn(prop(member, C, 'schedule-inbox-URL'))).to.deep.equal(['/dav/calendars/users/alice/inbox/']);
      expect(hrefsIn(prop(member, C, 'schedule-outbox-URL'))).to.deep.equal(['/dav/calendars/users/alice/outbox/']);
      expect(hrefsIn(prop(member, C, 'calendar-user-address-set'))).to.include('mailto:alice@example.com');
      expect(member.props.get('{DAV:}no-such-thing')!.status).to.match(/ 404 /);
      const home = await davRequest(server, 'PROPFIND', '/dav/calendars/users/alice/', { depth: '1', token: alice, body: propfindBody('<d:resourcetype/>') });
      expect(home.members.map((m) => m.href)).to.have.members(['/dav/calendars/users/alice/', ...['bookings', 'inbox', 'outbox'].map((c) => `/dav/calendars/users/alice/${c}/`)]);
    });

    it('answers 401 with both challenges without credentials', async () => {
      const res = await davRequest(server, 'PROPFIND', '/dav/', { token: null, depth: '0' });
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.include('Basic realm="workspace-booking"').and.to.include('Bearer');
    });
  });

  describe('resource principals', () => {
    it('lists every active resource of the workspace with its properties, and no other', async () => {
      const res = await davRequest(server, 'PROPFIND', '/dav/principals/resources/', {
        depth: '1',
        token: alice,
        body: propfindBody('<d:displayname/><c:calendar-user-type/><c:calendar-user-address-set/><c:calendar-home-set/><wb:units/><wb:capacity/>'),
      });
      expect(res.status).to.equal(207);
      const principals = res.members.filter((m) => m.href !== '/dav/principals/resources/');
      expect(principals.map((m) => m.href)).to.have.members([room, otherRoom].map((id) => `/dav/principals/resources/${id}/`));
      const a = principals.find((m) => m.href.includes(room))!;
      expect(prop(a, D, 'displayname')!.text).to.equal('Zone room-a');
      expect(prop(a, C, 'calendar-user-type')!.text).to.equal('ROOM');
      expect(hrefsIn(prop(a, C, 'calendar-user-address-set'))).to.have.members([`mailto:${room}@resources.invalid`, `urn:uuid:${room}`]);
      expect(hrefsIn(prop(a, C, 'calendar-home-set'))).to.deep.equal([`/dav/calendars/resources/${room}/`]);
      expect(prop(a, WB, 'units')!.text).to.equal('1');
      expect(prop(a, WB, 'capacity')!.text).to.equal('8');
    });

    it('lists the homes of the same resources under /dav/calendars/resources/', async () => {
      const res = await davRequest(server, 'PROPFIND', '/dav/calendars/resources/', { depth: '1', token: alice, body: propfindBody('<d:displayname/>') });
      expect(res.status).to.equal(207);
      const homes = res.members.filter((m) => m.href !== '/dav/calendars/resources/');
      expect(homes.map((m) => m.href)).to.include.members([room, otherRoom].map((id) => `/dav/calendars/resources/${id}/`));
      expect(homes.map((m) => m.href).filter((href) => href.includes(foreignRoom) || href.includes(inactive))).to.deep.equal([]);
    });

    it("never shows another workspace's room, nor an inactive one", async () => {
      for (const id of [foreignRoom, inactive]) {
        expect((await davRequest(server, 'PROPFIND', `/dav/principals/resources/${id}/`, { depth: '0', token: alice })).status).to.equal(404);
        expect((await davRequest(server, 'REPORT', roomCalendar(id), { token: alice, body: calendarQueryBody() })).status).to.equal(404);
      }
    });

    it('finds rooms by principal-property-search: name substring, type and address', async () => {
      const search = (conditions: string, test = '') =>
        davRequest(server, 'REPORT', '/dav/principals/', {
          token: alice,
          body: `<d:principal-property-search xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"${test}>${conditions}<d:prop><d:displayname/></d:prop></d:principal-property-search>`,
        });
      const byName = await search('<d:property-search><d:prop><d:displayname/></d:prop><d:match>ROOM-A</d:match></d:property-search>');
      expect(byName.members.map((m) => m.href)).to.deep.equal([`/dav/principals/resources/${room}/`]);
      const byAddress = await search(`<d:property-search><d:prop><c:calendar-user-address-set/></d:prop><d:match>mailto:${otherRoom}@resources.invalid</d:match></d:property-search>`);
      expect(byAddress.members.map((m) => m.href)).to.deep.equal([`/dav/principals/resources/${otherRoom}/`]);
      const rooms = await search('<d:property-search><d:prop><c:calendar-user-type/></d:prop><d:match>ROOM</d:match></d:property-search>');
      expect(rooms.members).to.have.length(2);
      const foreign = await search(`<d:property-search><d:prop><c:calendar-user-address-set/></d:prop><d:match>urn:uuid:${foreignRoom}</d:match></d:property-search>`);
      expect(foreign.members).to.have.length(0);
    });
  });

  describe("a room's calendar", () => {
    it('carries the collection properties', async () => {
      const res = await davRequest(server, 'PROPFIND', roomCalendar(), {
        depth: '0',
        token: alice,
        body: propfindBody('<d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><cs:getctag/><d:sync-token/>'),
      });
      const member = res.members[0]!;
      expect(child(prop(member, D, 'resourcetype'), C, 'calendar')).to.exist;
      expect(prop(member, D, 'displayname')!.text).to.equal('Zone room-a');
      expect(prop(member, C, 'supported-calendar-component-set')!.children.map((c) => c.attributes.name)).to.deep.equal(['VEVENT']);
      expect(prop(member, D, 'sync-token')!.text).to.match(/^urn:workspace-booking:sync:/);
      expect(prop(member, CS, 'getctag')!.text).to.equal(prop(member, D, 'sync-token')!.text);
    });

    it("gives a month by calendar-query equal to the room's REST schedule, titles under §2's privacy", async () => {
      const query = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: alice, body: calendarQueryBody('20270301T000000Z', '20270401T000000Z') });
      expect(query.status).to.equal(207);
      const events = eventsOf(query);
      const schedule = await server.request('GET', `/booking/v1/resources/${room}/schedule?from=2027-03-01T00:00:00Z&to=2027-04-01T00:00:00Z`, { token: alice });
      expect(schedule.status).to.equal(200);
      expect([...events.keys()]).to.have.members(schedule.body.bookings.map((b: { id: string }) => b.id));
      for (const b of schedule.body.bookings) {
        expect(events.get(b.id)).to.include({ start: new Date(b.startTime).toISOString(), end: new Date(b.endTime).toISOString() });
      }
      expect(events.get(ids[0]!)!.summary).to.equal('Alice plans');
      expect(events.get(ids[1]!)!.summary).to.equal('Busy');
      expect(events.has(ids[3]!)).to.equal(false);
    });

    it('lists its objects and etags on PROPFIND Depth 1, and GETs each with a strong ETag and 304', async () => {
      const listing = await davRequest(server, 'PROPFIND', roomCalendar(), { depth: '1', token: alice, body: propfindBody('<d:getetag/>') });
      const objects = listing.members.filter((m) => m.href.endsWith('.ics'));
      expect(objects.map((m) => m.href)).to.have.members(ids.map((id) => `${roomCalendar()}${id}.ics`));
      const first = objects.find((m) => m.href.includes(ids[0]!))!;
      const etag = prop(first, D, 'getetag')!.text;
      const get = await davRequest(server, 'GET', first.href, { token: alice });
      expect(get.status).to.equal(200);
      expect(get.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
      expect(get.headers.get('etag')).to.equal(etag);
      expect(etag).not.to.match(/^W\//);
      expect(get.text).to.match(/^BEGIN:VCALENDAR\r\n/);
      expect(get.text).to.include(`X-BOOKING-ID:${ids[0]}\r\n`);
      expect((await davRequest(server, 'GET', first.href, { token: alice, headers: { 'if-none-match': etag } })).status).to.equal(304);
      expect((await davRequest(server, 'GET', `${roomCalendar()}${randomUUID()}.ics`, { token: alice })).status).to.equal(404);
    });

    it('answers calendar-multiget with the objects named, 404 for one it does not hold', async () => {
      const missing = `${roomCalendar()}${randomUUID()}.ics`;
      const body = `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>${roomCalendar()}${ids[0]}.ics</d:href><d:href>${roomCalendar()}${ids[2]}.ics</d:href><d:href>${missing}</d:href></c:calendar-multiget>`;
      const res = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: alice, body });
      expect(res.status).to.equal(207);
      expect([...eventsOf(res).keys()]).to.have.members([ids[0], ids[2]]);
      expect(res.members.find((m) => m.href === missing)!.status).to.match(/ 404 /);
    });

    it('keeps a client in sync: REST creates, changes and cancels show as changed and removed objects', async () => {
      const first = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody() });
      expect(first.status).to.equal(207);
      expect(first.members.map((m) => m.href)).to.have.members(ids.map((id) => `${roomCalendar()}${id}.ics`));
      const created = await create(bob, '2027-03-10T09:00:00Z', '2027-03-10T10:00:00Z', 'New one');
      const cancel = await server.request('PATCH', `/booking/v1/bookings/${ids[2]}/cancel`, { token: alice, body: {} });
      expect(cancel.status).to.equal(200);
      const second = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody(first.syncToken) });
      expect(second.status).to.equal(207);
      expect(second.members.map((m) => [m.href, m.status ?? 'props'])).to.have.deep.members([
        [`${roomCalendar()}${created}.ics`, 'props'],
        [`${roomCalendar()}${ids[2]}.ics`, 'HTTP/1.1 404 Not Found'],
      ]);
      expect(prop(second.members.find((m) => m.href.includes(created)), D, 'getetag')).to.exist;
      expect(second.syncToken).to.not.equal(first.syncToken);
      const third = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody(second.syncToken) });
      expect(third.members).to.deep.equal([]);
      expect(third.syncToken).to.equal(second.syncToken);
      ids.splice(2, 1, created);
    });

    it("reports every object again, with new etags, once the room is renamed (its LOCATION changed)", async () => {
      const before = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody() });
      const etags = new Map(before.members.map((m) => [m.href, prop(m, D, 'getetag')!.text]));
      const room = roomCalendar().split('/').at(-3)!;
      expect(await renameResource(server.services, room, 'Fjord room', 'device-service')).to.equal(true);
      const after = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody(before.syncToken) });
      expect(after.members.map((m) => m.href)).to.have.members([...etags.keys()]);
      for (const member of after.members) expect(prop(member, D, 'getetag')!.text, member.href).to.not.equal(etags.get(member.href));
      const object = await davRequest(server, 'GET', after.members[0]!.href, { token: admin });
      expect(object.text).to.include('LOCATION:Fjord room\r\n');
      const quiet = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody(after.syncToken) });
      expect(quiet.members).to.deep.equal([]);
    });

    it("shows the workers' moves (no-show, completion) as removed objects", async () => {
      const noShow = await create(bob, '2027-03-01T09:00:00Z', '2027-03-01T09:30:00Z', 'Never came');
      const completed = await create(bob, '2027-03-01T10:00:00Z', '2027-03-01T10:30:00Z', 'Came and went');
      const before = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody() });
      expect(before.members.map((m) => m.href)).to.include.members([noShow, completed].map((id) => `${roomCalendar()}${id}.ics`));
      setClock(server, '2027-03-01T11:00:00Z');
      await markNoShow(server.services, noShow);
      await completeBooking(server.services, completed);
      setClock(server, '2027-03-01T08:00:00Z');
      const after = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody(before.syncToken) });
      expect(after.members.map((m) => [m.href, m.status])).to.have.deep.members([
        [`${roomCalendar()}${noShow}.ics`, 'HTTP/1.1 404 Not Found'],
        [`${roomCalendar()}${completed}.ics`, 'HTTP/1.1 404 Not Found'],
      ]);
    });

    it('refuses a sync token it never gave with 403 DAV:valid-sync-token', async () => {
      const res = await davRequest(server, 'REPORT', roomCalendar(), { depth: '1', token: admin, body: syncBody('urn:workspace-booking:sync:99999999999-1') });
      expect(res.status).to.equal(403);
      expect(child(res.root, D, 'valid-sync-token')).to.exist;
    });
  });

  describe('combined rooms (§22)', () => {
    it("holds the bookings of a room's parts and wholes, naming the room booked, and syncs them", async function () {
      if (process.env.PROJECTIONS === 'async') this.skip(); // giving parts answers 503 there (contract §22)
      const left = await registerZone(server, 'room-left');
      const right = await registerZone(server, 'room-right');
      const whole = await registerZone(server, 'room-whole', { parts: [left, right] });
      const start = await davRequest(server, 'REPORT', roomCalendar(whole), { depth: '1', token: admin, body: syncBody() });
      const onLeft = await create(alice, '2027-03-05T09:00:00Z', '2027-03-05T10:00:00Z', 'Left only', 'room-left');
      const onWhole = await create(alice, '2027-03-06T09:00:00Z', '2027-03-06T10:00:00Z', 'Everything', 'room-whole');
      const via = async (calendarOf: string, id: string) => {
        const res = await davRequest(server, 'GET', `${roomCalendar(calendarOf)}${id}.ics`, { token: alice });
        expect(res.status).to.equal(200);
        return /\r\nX-VIA-RESOURCE:(\S+)\r\n/.exec(res.text)?.[1] ?? null;
      };
      expect(await via(whole, onLeft)).to.equal(left);
      expect(await via(whole, onWhole)).to.equal(null);
      expect(await via(left, onWhole)).to.equal(whole);
      expect((await davRequest(server, 'GET', `${roomCalendar(right)}${onLeft}.ics`, { token: alice })).status).to.equal(404);
      const next = await davRequest(server, 'REPORT', roomCalendar(whole), { depth: '1', token: admin, body: syncBody(start.syncToken) });
      expect(next.members.map((m) => m.href)).to.have.members([onLeft, onWhole].map((id) => `${roomCalendar(whole)}${id}.ics`));
    });
  });

  describe("the user's own calendar", () => {
    it("holds the caller's own bookings, in every room", async () => {
      const res = await davRequest(server, 'REPORT', '/dav/calendars/users/alice/bookings/', { depth: '1', token: alice, body: calendarQueryBody('20270301T000000Z', '20270501T000000Z') });
      expect(res.status).to.equal(207);
      const events = eventsOf(res);
      expect([...events.values()].map((e) => e.summary)).to.include.members(['Alice plans', 'April', 'Elsewhere']);
      expect([...events.values()].filter((e) => ['Bob reviews', 'New one', 'Busy'].includes(e.summary))).to.deep.equal([]);
    });

    it("refuses another user's home with 403 DAV:need-privileges", async () => {
      const res = await davRequest(server, 'PROPFIND', '/dav/calendars/users/bob/bookings/', { depth: '0', token: alice });
      expect(res.status).to.equal(403);
      expect(child(res.root, D, 'need-privileges')).to.exist;
    });
  });

  describe('writes and hostile input', () => {
    it('refuses PROPPATCH, MKCALENDAR, PUT and DELETE with 403 DAV:need-privileges', async () => {
      const attempts: [string, string, string?][] = [
        ['PROPPATCH', roomCalendar(), '<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>x</d:displayname></d:prop></d:set></d:propertyupdate>'],
        ['MKCALENDAR', '/dav/calendars/users/alice/new/'],
        ['PUT', `${roomCalendar()}${randomUUID()}.ics`],
        ['DELETE', `${roomCalendar()}${ids[0]}.ics`],
      ];
      for (const [method, path, body] of attempts) {
        const res = await davRequest(server, method, path, { token: alice, body });
        expect(res.status, method).to.equal(403);
        expect(child(res.root, D, 'need-privileges'), method).to.exist;
      }
      expect((await davRequest(server, 'GET', `${roomCalendar()}${ids[0]}.ics`, { token: alice })).status).to.equal(200);
    });

    it('refuses a DOCTYPE, malformed XML and deep nesting with 400, a body over 1 MiB with 413', async () => {
      const doctype = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "boom">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>';
      const deep = `<a xmlns="DAV:">${'<b>'.repeat(100)}${'</b>'.repeat(100)}</a>`;
      for (const body of [doctype, '<d:propfind xmlns:d="DAV:"><d:prop>', deep]) {
        const res = await davRequest(server, 'PROPFIND', '/dav/', { depth: '0', token: alice, body });
        expect(res.status).to.equal(400);
        expect(JSON.parse(res.text)).to.include({ statusCode: 400 });
      }
      const huge = `<d:propfind xmlns:d="DAV:"><d:prop>${'<d:displayname/>'.repeat(70_000)}</d:prop></d:propfind>`;
      expect(Buffer.byteLength(huge)).to.be.above(2 ** 20);
      const res = await davRequest(server, 'PROPFIND', '/dav/', { depth: '0', token: alice, body: huge });
      expect(res.status).to.equal(413);
    });
  });
});
