import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import ICAL from 'ical.js';
import { sql } from 'kysely';
import { laterDecisionsCheckpoint } from '../../../src/workers/calendar/later-decisions.js';
import { placeRelayCheckpoints, startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { waitFor } from '../../workers/worker-test-kit.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { C, calendarQueryBody, davRequest, prop } from './dav-requests.js';
import { eventPath, eventText, putEvent, roomAddress, storedEvent, type EventParts } from './invitation-requests.js';

// Contract §26 "Decisions made later": within 5 s of a decision made outside the organizer's event,
// its GET shows the room's new answer and its inbox a new REPLY. The service's clock stands at
// Monday 2027-01-04 08:00Z; the tests that move it come last, each on a later day.
const monday = '2027-01-04T08:00:00Z';
const nine = '2027-01-05T09:00:00Z';
const ten = '2027-01-05T10:00:00Z';

/** A REPLY of the inbox, with the COMMENT a withdrawing room gives its reason in. */
type InboxReply = { uid: string; attendee: string; partstat: string; requestStatus: string; comment: string | null };

describe('decisions made after an invitation reach the organizer\'s event and inbox (contract §26)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let workers: RunningWorkers;
  let alice: string;
  let carol: string;
  let counter = 0;

  const room = async (bookingPolicy: Record<string, unknown> = {}) => {
    counter += 1;
    return registerZone(server, `decided-room-${counter}`, { bookingPolicy });
  };
  const approvalRoom = (policy: Record<string, unknown> = {}) => room({ autoConfirm: false, approvers: ['carol'], ...policy });

  /** Alice invites the room; answers where the event lives, its parts and the Schedule-Tag. */
  const invite = async (roomId: string, parts: Partial<EventParts> = {}) => {
    const event: EventParts = { uid: randomUUID(), start: nine, end: ten, attendees: [roomAddress(roomId)], ...parts };
    const path = eventPath('alice', `${randomUUID()}.ics`);
    const put = await putEvent(server, alice, path, eventText(event));
    expect(put.status, put.text).to.equal(201);
    return { path, event, uid: event.uid!, scheduleTag: put.headers.get('schedule-tag') };
  };
  const answerOf = async (path: string, roomId: string) => {
    const { attendees } = await storedEvent(server, alice, path);
    return attendees.find((a) => a.address.toLowerCase() === roomAddress(roomId))!;
  };
  const repliesOf = async (uid: string): Promise<InboxReply[]> => {
    const res = await davRequest(server, 'REPORT', '/dav/calendars/users/alice/inbox/', { token: alice, depth: '1', body: calendarQueryBody() });
    expect(res.status, res.text).to.equal(207);
    return res.members
      .map((member) => new ICAL.Component(ICAL.parse(prop(member, C, 'calendar-data')!.text)).getFirstSubcomponent('vevent')!)
      .filter((vevent) => vevent.getFirstPropertyValue('uid') === uid)
      .sort((a, b) => (a.getFirstPropertyValue('dtstamp') as ICAL.Time).compare(b.getFirstPropertyValue('dtstamp') as ICAL.Time))
      .map((vevent) => {
        const attendee = vevent.getFirstProperty('attendee')!;
        const comment = vevent.getFirstPropertyValue('comment');
        return {
          uid,
          attendee: String(attendee.getFirstValue()).toLowerCase(),
          partstat: String(attendee.getParameter('partstat')),
          requestStatus: (vevent.getFirstPropertyValue('request-status') as unknown as string[]).join(';'),
          comment: comment === null ? null : String(comment),
        };
      });
  };
  /** Waits at most 5 s for the room's answer, then answers the REPLYs of the event. */
  const within5s = async (path: string, uid: string, roomId: string, partstat: string, replies: number) => {
    const started = Date.now();
    await waitFor(async () => (await answerOf(path, roomId)).partstat === partstat && (await repliesOf(uid)).length === replies, { timeoutMs: 5_000, what: `${partstat} and ${replies} REPLYs` });
    expect(Date.now() - started).to.be.below(5_000);
    return repliesOf(uid);
  };
  const declinedWith = (roomId: string, comment: string): Partial<InboxReply> => ({
    attendee: roomAddress(roomId),
    partstat: 'DECLINED',
    requestStatus: '2.0;Success',
    comment,
  });
  const eventCount = async (streams = '%') =>
    Number((await server.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('stream_id', 'like', streams).executeTakeFirstOrThrow()).n);
  const processorBehind = async () =>
    (
      await sql<{ behind: boolean }>`select exists (select 1 from events e join processor_checkpoints c on c.name = ${laterDecisionsCheckpoint.name}
        where (e.transaction_id, e.global_position) > (c.transaction_id, c.global_position)) as behind`.execute(server.database.db)
    ).rows[0]!.behind;
  /** Waits until the processor has passed the end of the log, and the log stays there (the timers the clock made due have fired). */
  const processorSettled = async () => {
    for (let last = -1; ; ) {
      const events = await eventCount();
      if (events === last) return;
      workers.wake();
      await waitFor(async () => !(await processorBehind()), { timeoutMs: 20_000, what: 'the processor to pass the log' });
      last = events;
    }
  };
  const calendarEventCount = () => eventCount('calendar-event-%');

  before(async () => {
    server = await startTestServer();
    alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    carol = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
    setClock(server, monday);
    await placeRelayCheckpoints(server.services);
    // The production tunables: the 5 s are those a deployment gives.
    workers = startWorkers(server.services);
  });
  after(async () => {
    await workers.stop();
    await server.stop();
  });

  it('an approver\'s confirm turns the tentative room accepted, with a REPLY; the Schedule-Tag stays', async () => {
    const roomId = await approvalRoom();
    const { path, uid, event, scheduleTag } = await invite(roomId);
    const tentative = await answerOf(path, roomId);
    expect(tentative).to.include({ partstat: 'TENTATIVE', scheduleStatus: '1.2' });
    expect(await repliesOf(uid)).to.have.length(1);

    const confirmed = await server.request('PATCH', `/booking/v1/bookings/${tentative.bookingId}/confirm`, { token: carol });
    expect(confirmed.status).to.equal(200);
    const replies = await within5s(path, uid, roomId, 'ACCEPTED', 2);
    expect(replies[1]).to.deep.equal({ uid, attendee: roomAddress(roomId), partstat: 'ACCEPTED', requestStatus: '2.0;Success', comment: null });
    expect(await answerOf(path, roomId)).to.include({ scheduleStatus: '1.2', bookingId: tentative.bookingId });

    // RFC 6638 §3.2.10: an attendee's answer leaves the organizer's Schedule-Tag as it was; the same text again changes nothing.
    const again = await putEvent(server, alice, path, eventText(event));
    expect(again.status).to.equal(204);
    expect(again.headers.get('schedule-tag')).to.equal(scheduleTag);
    expect((await answerOf(path, roomId)).partstat).to.equal('ACCEPTED');
  });

  it('an approver\'s decline → DECLINED without a booking, its reason in the REPLY', async () => {
    const roomId = await approvalRoom();
    const { path, uid } = await invite(roomId);
    const { bookingId } = await answerOf(path, roomId);
    const declined = await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { token: carol, body: { reason: 'room is needed for the board' } });
    expect(declined.status).to.equal(200);
    const replies = await within5s(path, uid, roomId, 'DECLINED', 2);
    expect(replies[1]).to.include(declinedWith(roomId, 'room is needed for the board'));
    expect(await answerOf(path, roomId)).to.include({ bookingId: null, scheduleStatus: '1.2' });
  });

  it('the organizer\'s cancel through REST of an accepted room → DECLINED with the reason', async () => {
    const roomId = await room();
    const { path, uid } = await invite(roomId);
    const { bookingId, partstat } = await answerOf(path, roomId);
    expect(partstat).to.equal('ACCEPTED');
    const cancelled = await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { token: alice, body: { reason: 'we meet online' } });
    expect(cancelled.status).to.equal(200);
    expect((await within5s(path, uid, roomId, 'DECLINED', 2))[1]).to.include(declinedWith(roomId, 'we meet online'));
  });

  it('a blackout with cancelExisting → DECLINED with the blackout\'s reason', async () => {
    const roomId = await room();
    const { path, uid } = await invite(roomId);
    const blackout = await server.request('POST', '/booking/v1/blackouts', { body: { reason: 'Water damage', resourceIds: [roomId], from: nine, to: ten, cancelExisting: true } });
    expect(blackout.status, JSON.stringify(blackout.body)).to.equal(201);
    expect((await within5s(path, uid, roomId, 'DECLINED', 2))[1]).to.include(declinedWith(roomId, 'Water damage'));
  });

  it('the event\'s own writes answer for themselves: no REPLY of a later decision follows them', async () => {
    const [kept, removed] = [await room(), await room()];
    const { path, uid, event } = await invite(kept, { attendees: [roomAddress(kept), roomAddress(removed)] });
    expect(await repliesOf(uid)).to.have.length(2);
    // The room left out is cancelled by the PUT itself; the one kept is cancelled by STATUS:CANCELLED.
    expect((await putEvent(server, alice, path, eventText({ ...event, attendees: [roomAddress(kept)] }))).status).to.equal(204);
    expect((await putEvent(server, alice, path, eventText({ ...event, attendees: [roomAddress(kept)], status: 'CANCELLED' }))).status).to.equal(204);
    const settled = await storedEvent(server, alice, path);
    const before = await repliesOf(uid);
    expect(before.map((r) => r.partstat)).to.deep.equal(['ACCEPTED', 'ACCEPTED', 'DECLINED']);

    // A later decision on another event, followed in log order after those cancels, marks that they were passed over.
    const marker = await room();
    const other = await invite(marker);
    const { bookingId } = await answerOf(other.path, marker);
    expect((await server.request('PATCH', `/booking/v1/bookings/${bookingId}/cancel`, { token: alice, body: {} })).status).to.equal(200);
    expect((await within5s(other.path, other.uid, marker, 'DECLINED', 2))[1]).to.include(declinedWith(marker, 'cancelled'));
    expect(await repliesOf(uid)).to.deep.equal(before);
    expect((await storedEvent(server, alice, path)).etag).to.equal(settled.etag);
  });

  it('a series: TENTATIVE until every occurrence is confirmed, then ACCEPTED; an occurrence cancelled → its instance DECLINED, with a REPLY of that instance; the series cancelled → DECLINED', async () => {
    const roomId = await approvalRoom();
    const { path, uid } = await invite(roomId, { extra: ['RRULE:FREQ=WEEKLY;COUNT=3'] });
    const tentative = await answerOf(path, roomId);
    expect(tentative.partstat).to.equal('TENTATIVE');
    const occurrences = (
      await server.database.db.selectFrom('bookings').select(['id', 'start_time']).where('recurrence_parent_id', '=', tentative.bookingId!).orderBy('start_time').execute()
    ).map((b) => b.id);
    expect(occurrences).to.have.length(3);
    for (const id of occurrences.slice(0, 2)) expect((await server.request('PATCH', `/booking/v1/bookings/${id}/confirm`, { token: carol })).status).to.equal(200);
    await processorSettled();
    expect((await answerOf(path, roomId)).partstat, 'one occurrence still pending').to.equal('TENTATIVE');
    expect((await server.request('PATCH', `/booking/v1/bookings/${occurrences[2]}/confirm`, { token: carol })).status).to.equal(200);
    await within5s(path, uid, roomId, 'ACCEPTED', 2);

    const cancelled = await server.request('PATCH', `/booking/v1/bookings/${occurrences[1]}/cancel`, { token: alice, body: { reason: 'Off that week' } });
    expect(cancelled.status).to.equal(200);
    const replies = await within5s(path, uid, roomId, 'ACCEPTED', 3);
    expect(replies[2]).to.include({ partstat: 'DECLINED', comment: 'Off that week' });
    const stored = new ICAL.Component(ICAL.parse((await storedEvent(server, alice, path)).text));
    const instance = stored.getAllSubcomponents('vevent').find((e) => e.hasProperty('recurrence-id'))!;
    expect(String(instance.getFirstPropertyValue('recurrence-id'))).to.equal('2027-01-12T09:00:00Z');
    expect(instance.getFirstProperty('attendee')!.getParameter('partstat')).to.equal('DECLINED');

    expect((await server.request('PATCH', `/booking/v1/bookings/series/${tentative.bookingId}/cancel`, { token: alice, body: {} })).status).to.equal(200);
    await waitFor(async () => (await answerOf(path, roomId)).partstat === 'DECLINED', { timeoutMs: 5_000, what: 'the series declined' });
    expect((await answerOf(path, roomId)).bookingId).to.equal(null);
  });

  it('a deadline passed without approval → DECLINED, "not approved in time"', async () => {
    const roomId = await approvalRoom({ approvalDeadlineMinutes: 60 });
    const { path, uid } = await invite(roomId, { start: '2027-01-12T09:00:00Z', end: '2027-01-12T10:00:00Z' });
    expect((await answerOf(path, roomId)).partstat).to.equal('TENTATIVE');
    setClock(server, '2027-01-12T08:00:01Z');
    workers.wake();
    expect((await within5s(path, uid, roomId, 'DECLINED', 2))[1]).to.include(declinedWith(roomId, 'not approved in time'));
  });

  it('a no-show marked by the worker → DECLINED', async () => {
    const roomId = await room();
    const { path, uid } = await invite(roomId, { start: '2027-01-19T09:00:00Z', end: '2027-01-19T10:00:00Z' });
    expect((await answerOf(path, roomId)).partstat).to.equal('ACCEPTED');
    setClock(server, '2027-01-19T09:15:00Z');
    workers.wake();
    expect((await within5s(path, uid, roomId, 'DECLINED', 2))[1]).to.include(declinedWith(roomId, 'no-show: not checked in within the grace period'));
  });

  it('a repeat of every decision (the processor\'s checkpoint moved back to the log\'s start) changes nothing', async () => {
    await processorSettled();
    const count = await calendarEventCount();
    await server.database.db.updateTable('processor_checkpoints').set({ transaction_id: sql`'0'::xid8`, global_position: 0 }).where('name', '=', laterDecisionsCheckpoint.name).execute();
    await processorSettled();
    expect(await calendarEventCount()).to.equal(count);
  });
});
