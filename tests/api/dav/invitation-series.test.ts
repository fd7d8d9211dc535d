import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import ICAL from 'ical.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { davRequest } from './dav-requests.js';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

/** An organizer's recurring event with its DTSTART/DTEND in a named zone (TZID), as calendar clients write a weekly meeting. */
function zonedSeriesText(parts: { uid: string; tzid: string; start: string; end: string; rule: string; room: string; extra?: string[]; instances?: string[][] }): string {
  const vevent = (lines: string[]) => ['BEGIN:VEVENT', `UID:${parts.uid}`, 'DTSTAMP:20270101T000000Z', 'ORGANIZER:mailto:alice@example.com', ...lines, 'END:VEVENT'];
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tests//series//EN',
    ...vevent([`DTSTART;TZID=${parts.tzid}:${parts.start}`, `DTEND;TZID=${parts.tzid}:${parts.end}`, `RRULE:${parts.rule}`, 'SUMMARY:Weekly', `ATTENDEE;CUTYPE=ROOM:${parts.room}`, ...(parts.extra ?? [])]),
    ...(parts.instances ?? []).flatMap((lines) => vevent(['SUMMARY:Weekly', `ATTENDEE;CUTYPE=ROOM:${parts.room}`, ...lines])),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('recurring invitations: a series on each room (contract §26)', function () {
  this.timeout(180_000);
  let server: TestServer;
  let alice: string;
  let bob: string;
  let admin: string;
  let zones = 0;

  const freshRoom = async (policy: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
    zones += 1;
    return registerZone(server, `series-room-${zones}`, { ...extra, bookingPolicy: { maxAdvanceDays: 365, ...policy } });
  };
  const name = () => `${randomUUID()}.ics`;
  /** The room's live bookings (series parents left out), earliest first. */
  const liveBookings = async (resourceId: string) =>
    (
      await server.database.db
        .selectFrom('bookings')
        .select(['id', 'start_time', 'end_time', 'calendar_uid', 'recurrence_parent_id'])
        .where('bookable_resource_id', '=', resourceId)
        .where('status', 'in', ['pending', 'confirmed'])
        .where('is_series_parent', '=', false)
        .orderBy('start_time')
        .execute()
    ).map((b) => ({ ...b, start: new Date(b.start_time as unknown as string).toISOString().replace('.000', '') }));
  const restBooking = async (resourceId: string, startTime: string, endTime: string) => {
    const res = await server.request('POST', '/booking/v1/bookings', { token: bob, body: { resourceType: 'zone', resourceId, title: 'REST', startTime, endTime } });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  };
  const zoneIdOf = async (id: string) => (await server.request('GET', `/booking/v1/resources/${id}`, { token: admin })).body.resourceId as string;
  const roomAttendee = async (path: string, room: string) => (await storedEvent(server, alice, path)).attendees.find((a) => a.address === roomAddress(room))!;
  const replyOf = async (uid: string) => (await inboxReplies(server, alice, 'alice')).filter((r) => r.uid === uid).at(-1)!;

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    bob = server.token({ level: 'LV4', sub: 'bob', email: 'bob@example.com' });
    admin = server.token({ level: 'LV2', sub: 'admin' });
    setClock(server, '2027-03-01T08:00:00Z');
  });
  after(() => server.stop());

  it('a weekly ×5 event on a free room → ACCEPTED, a series of five bookings with the event’s UID, X-BOOKING-ID its parent, a REPLY 2.0', async () => {
    const room = await freshRoom();
    const uid = randomUUID();
    const path = eventPath('alice', name());
    const res = await putEvent(server, alice, path, eventText({ uid, start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RRULE:FREQ=WEEKLY;COUNT=5'] }));
    expect(res.status, res.text).to.equal(201);
    const attendee = await roomAttendee(path, room);
    expect(attendee.partstat).to.equal('ACCEPTED');
    const parent = (await server.request('GET', `/booking/v1/bookings/${attendee.bookingId}`, { token: admin })).body;
    expect(parent).to.include({ isSeriesParent: true, calendarUid: uid, bookerProfileId: 'alice' });
    const booked = await liveBookings(room);
    expect(booked.map((b) => b.start)).to.deep.equal(['2027-03-08T09:00:00Z', '2027-03-15T09:00:00Z', '2027-03-22T09:00:00Z', '2027-03-29T09:00:00Z', '2027-04-05T09:00:00Z']);
    expect(booked.every((b) => b.calendar_uid === uid && b.recurrence_parent_id === attendee.bookingId)).to.equal(true);
    expect((await replyOf(uid)).requestStatus).to.match(/^2\.0/);
    const moved = await server.request('PATCH', `/booking/v1/bookings/series/${attendee.bookingId}`, { token: alice, body: { title: 'Elsewhere' } });
    expect(moved.status).to.equal(409);
    expect(moved.body.reason).to.equal('calendar_managed');
    const one = await server.request('PATCH', `/booking/v1/bookings/${booked[1]!.id}`, { token: alice, body: { startTime: '2027-03-15T12:00:00Z', endTime: '2027-03-15T13:00:00Z' } });
    expect(one.status).to.equal(409);
    expect(one.body.reason).to.equal('calendar_managed');
  });

  it('keeps the wall clock of the event’s zone across a DST change, for an IANA TZID and its Windows name alike', async () => {
    for (const tzid of ['Europe/Berlin', 'W. Europe Standard Time']) {
      const room = await freshRoom();
      const path = eventPath('alice', name());
      const text = zonedSeriesText({ uid: randomUUID(), tzid, start: '20270322T090000', end: '20270322T100000', rule: 'FREQ=WEEKLY;COUNT=3', room: roomAddress(room) });
      expect((await putEvent(server, alice, path, text)).status).to.equal(201);
      expect((await liveBookings(room)).map((b) => b.start), tzid).to.deep.equal(['2027-03-22T08:00:00Z', '2027-03-29T07:00:00Z', '2027-04-05T07:00:00Z']);
    }
  });

  it('one busy occurrence with schedulingConflictsAllowed 0 → the whole series DECLINED with 4.0, nothing booked', async () => {
    const room = await freshRoom();
    await restBooking(await zoneIdOf(room), '2027-03-22T09:30:00Z', '2027-03-22T10:30:00Z');
    const uid = randomUUID();
    const path = eventPath('alice', name());
    expect((await putEvent(server, alice, path, eventText({ uid, start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] }))).status).to.equal(201);
    expect(await roomAttendee(path, room)).to.include({ partstat: 'DECLINED', bookingId: null });
    expect((await replyOf(uid)).requestStatus).to.match(/^4\.0;.*;conflict$/);
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-22T09:30:00Z']);
  });

  it('as many busy occurrences as schedulingConflictsAllowed → the series without them, each an overridden instance with the room DECLINED', async () => {
    const room = await freshRoom({ schedulingConflictsAllowed: 1 });
    await restBooking(await zoneIdOf(room), '2027-03-22T09:30:00Z', '2027-03-22T10:30:00Z');
    const path = eventPath('alice', name());
    expect((await putEvent(server, alice, path, eventText({ start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] }))).status).to.equal(201);
    const stored = await storedEvent(server, alice, path);
    expect(stored.attendees[0]).to.include({ partstat: 'ACCEPTED' });
    const instances = new ICAL.Component(ICAL.parse(stored.text)).getAllSubcomponents('vevent').filter((e) => e.hasProperty('recurrence-id'));
    expect(instances).to.have.length(1);
    expect(String(instances[0]!.getFirstPropertyValue('recurrence-id'))).to.equal('2027-03-22T09:00:00Z');
    expect(instances[0]!.getFirstProperty('attendee')!.getParameter('partstat')).to.equal('DECLINED');
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T09:00:00Z', '2027-03-15T09:00:00Z', '2027-03-22T09:30:00Z', '2027-03-29T09:00:00Z']);

    const two = await freshRoom({ schedulingConflictsAllowed: 1 });
    for (const day of ['15', '22']) await restBooking(await zoneIdOf(two), `2027-03-${day}T09:00:00Z`, `2027-03-${day}T10:00:00Z`);
    const twoPath = eventPath('alice', name());
    expect((await putEvent(server, alice, twoPath, eventText({ start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(two)], extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] }))).status).to.equal(201);
    expect((await roomAttendee(twoPath, two)).partstat, 'two refused, one allowed').to.equal('DECLINED');
    expect(await liveBookings(two)).to.have.length(2);
  });

  it('EXDATE leaves an occurrence out and a moved instance (RECURRENCE-ID) is held at its new times', async () => {
    const room = await freshRoom();
    const uid = randomUUID();
    const path = eventPath('alice', name());
    const text = zonedSeriesText({
      uid,
      tzid: 'UTC',
      start: '20270308T090000',
      end: '20270308T100000',
      rule: 'FREQ=WEEKLY;COUNT=4',
      room: roomAddress(room),
      extra: ['EXDATE;TZID=UTC:20270315T090000'],
      instances: [['RECURRENCE-ID;TZID=UTC:20270322T090000', 'DTSTART;TZID=UTC:20270322T140000', 'DTEND;TZID=UTC:20270322T150000']],
    });
    expect((await putEvent(server, alice, path, text)).status).to.equal(201);
    expect((await roomAttendee(path, room)).partstat).to.equal('ACCEPTED');
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T09:00:00Z', '2027-03-22T14:00:00Z', '2027-03-29T09:00:00Z']);
  });

  it('a series longer than §6 allows → DECLINED 3.1 maxOccurrences; allowRecurring false → 3.1 allowRecurring; nothing booked', async () => {
    const room = await freshRoom({ maxAdvanceDays: 3650 });
    const uid = randomUUID();
    const path = eventPath('alice', name());
    expect((await putEvent(server, alice, path, eventText({ uid, start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RRULE:FREQ=DAILY;COUNT=600'] }))).status).to.equal(201);
    expect((await replyOf(uid)).requestStatus).to.match(/^3\.1;.*;maxOccurrences$/);
    expect(await liveBookings(room)).to.deep.equal([]);

    const single = await freshRoom({ allowRecurring: false });
    const singleUid = randomUUID();
    expect((await putEvent(server, alice, eventPath('alice', name()), eventText({ uid: singleUid, start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(single)], extra: ['RRULE:FREQ=WEEKLY;COUNT=2'] }))).status).to.equal(201);
    expect((await replyOf(singleUid)).requestStatus).to.match(/^3\.1;.*;allowRecurring$/);
    expect(await liveBookings(single)).to.deep.equal([]);
  });

  it('an RRULE without end is decided as §6 decides one: occurrences up to the room’s horizon', async () => {
    const room = await freshRoom({ maxAdvanceDays: 30 });
    const path = eventPath('alice', name());
    expect((await putEvent(server, alice, path, eventText({ start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RRULE:FREQ=WEEKLY'] }))).status).to.equal(201);
    expect((await roomAttendee(path, room)).partstat).to.equal('ACCEPTED');
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T09:00:00Z', '2027-03-15T09:00:00Z', '2027-03-22T09:00:00Z', '2027-03-29T09:00:00Z']);
  });

  it('changes: the same text again appends nothing; new times replace the series; a single event replaces it again; DELETE cancels what it holds', async () => {
    const room = await freshRoom();
    const uid = randomUUID();
    const path = eventPath('alice', name());
    const weekly = (hour: string, extra = ['RRULE:FREQ=WEEKLY;COUNT=3']) => eventText({ uid, start: `2027-03-08T${hour}:00:00Z`, end: `2027-03-08T${hour}:30:00Z`, attendees: [roomAddress(room)], extra });
    expect((await putEvent(server, alice, path, weekly('09'))).status).to.equal(201);
    const events = async () => Number((await server.database.db.selectFrom('events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await events();
    expect((await putEvent(server, alice, path, weekly('09'))).status).to.equal(204);
    expect(await events()).to.equal(before);

    expect((await putEvent(server, alice, path, weekly('11'))).status).to.equal(204);
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T11:00:00Z', '2027-03-15T11:00:00Z', '2027-03-22T11:00:00Z']);
    expect((await roomAttendee(path, room)).partstat).to.equal('ACCEPTED');

    expect((await putEvent(server, alice, path, weekly('13', []))).status).to.equal(204);
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T13:00:00Z']);

    expect((await putEvent(server, alice, path, weekly('15'))).status).to.equal(204);
    expect(await liveBookings(room)).to.have.length(3);
    expect((await davRequest(server, 'DELETE', path, { token: alice })).status).to.equal(204);
    expect(await liveBookings(room)).to.deep.equal([]);
  });

  it('ten organizers inviting one room to overlapping weekly series at once: exactly one series holds it, the others DECLINED with 4.0', async () => {
    const room = await freshRoom();
    const organizers = Array.from({ length: 10 }, (_, i) => ({ user: `org-${i}`, token: server.token({ level: 'LV4', sub: `org-${i}`, email: `org-${i}@example.com` }) }));
    const paths = organizers.map(({ user }) => eventPath(user, name()));
    const answers = await Promise.all(
      organizers.map(({ user, token }, i) =>
        putEvent(server, token, paths[i]!, eventText({ organizer: `mailto:${user}@example.com`, start: '2027-03-08T10:00:00Z', end: `2027-03-08T1${1 + (i % 2)}:00:00Z`, attendees: [roomAddress(room)], extra: ['RRULE:FREQ=WEEKLY;COUNT=3'] })),
      ),
    );
    expect(answers.map((a) => a.status)).to.deep.equal(Array(10).fill(201));
    const partstats = await Promise.all(organizers.map(async ({ token }, i) => (await storedEvent(server, token, paths[i]!)).attendees[0]!.partstat));
    expect(partstats.filter((p) => p === 'ACCEPTED')).to.have.length(1);
    expect(partstats.filter((p) => p === 'DECLINED')).to.have.length(9);
    expect((await liveBookings(room)).map((b) => b.start)).to.deep.equal(['2027-03-08T10:00:00Z', '2027-03-15T10:00:00Z', '2027-03-22T10:00:00Z']);
  });

  it('an event repeated by RDATE alone → 403 with a clear reason, nothing booked', async () => {
    const room = await freshRoom();
    const res = await putEvent(server, alice, eventPath('alice', name()), eventText({ start: '2027-03-08T09:00:00Z', end: '2027-03-08T10:00:00Z', attendees: [roomAddress(room)], extra: ['RDATE:20270315T090000Z'] }));
    expect(res.status).to.equal(403);
    expect(res.text).to.match(/RRULE/);
    expect(await liveBookings(room)).to.deep.equal([]);
  });
});
