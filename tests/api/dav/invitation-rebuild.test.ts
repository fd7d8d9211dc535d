import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { rebuildReadModels } from '../../../src/projections/rebuild-read-models.js';
import { laterDecisionsCheckpoint } from '../../../src/workers/calendar/later-decisions.js';
import { placeRelayCheckpoints, startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { snapshotOf, tableSnapshot } from '../../support/read-model-snapshot.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { waitFor } from '../../workers/worker-test-kit.js';
import { registerZone, setClock } from '../booking/booking-api.js';
import { davRequest } from './dav-requests.js';
import { eventPath, eventText, inboxReplies, putEvent, roomAddress, storedEvent } from './invitation-requests.js';

/**
 * Contract §26 under §13: the organizers' stored events and their inboxes are read models of the
 * log like any other — a rebuild gives them back row for row after invitations of every kind
 * (accepted, tentative, declined, unknown rooms, a series with a declined instance), a later
 * decision, a move, a deleted REPLY and a deleted object.
 */
describe('rebuilding the calendar read models after invitations (contract §26, §13)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let workers: RunningWorkers | undefined;

  const processorBehind = async () =>
    (
      await sql<{ behind: boolean }>`select exists (select 1 from events e join processor_checkpoints c on c.name = ${laterDecisionsCheckpoint.name}
        where (e.transaction_id, e.global_position) > (c.transaction_id, c.global_position)) as behind`.execute(server.database.db)
    ).rows[0]!.behind;

  before(async () => {
    server = await startTestServer();
    setClock(server, '2027-01-04T08:00:00Z');
    await placeRelayCheckpoints(server.services);
    workers = startWorkers(server.services);
  });
  after(async () => {
    await workers?.stop();
    await server.stop();
  });

  it('gives calendar_events and calendar_inbox, and every other table, equal to the live ones', async () => {
    const alice = server.token({ level: 'LV4', sub: 'alice', email: 'alice@example.com' });
    const carol = server.token({ level: 'LV4', sub: 'carol', email: 'carol@example.com' });
    const free = await registerZone(server, 'rebuilt-free', { bookingPolicy: { maxAdvanceDays: 365 } });
    const approval = await registerZone(server, 'rebuilt-approval', { bookingPolicy: { maxAdvanceDays: 365, autoConfirm: false, approvers: ['carol'] } });
    const weekly = await registerZone(server, 'rebuilt-weekly', { bookingPolicy: { maxAdvanceDays: 365, schedulingConflictsAllowed: 1 } });
    const put = async (uid: string, parts: { start: string; end: string; attendees: string[]; extra?: string[] }) => {
      const path = eventPath('alice', `${uid}.ics`);
      const res = await putEvent(server, alice, path, eventText({ uid, ...parts }));
      expect(res.status, res.text).to.be.oneOf([201, 204]);
      return path;
    };

    // A busy week of the weekly room: its series is made without that occurrence, which shows DECLINED.
    await put(randomUUID(), { start: '2027-01-18T09:00:00Z', end: '2027-01-18T10:00:00Z', attendees: [roomAddress(weekly)] });
    const seriesPath = await put(randomUUID(), { start: '2027-01-11T09:00:00Z', end: '2027-01-11T10:00:00Z', attendees: [roomAddress(weekly)], extra: ['RRULE:FREQ=WEEKLY;COUNT=4'] });
    expect((await storedEvent(server, alice, seriesPath)).text).to.match(/RECURRENCE-ID/);

    const meeting = randomUUID();
    const meetingPath = await put(meeting, { start: '2027-01-05T09:00:00Z', end: '2027-01-05T10:00:00Z', attendees: [roomAddress(free), roomAddress(approval), roomAddress(randomUUID()), 'mailto:bob@example.com'] });
    const tentative = (await storedEvent(server, alice, meetingPath)).attendees.find((a) => a.address === roomAddress(approval))!;
    expect(tentative.partstat).to.equal('TENTATIVE');
    const declinedPath = await put(randomUUID(), { start: '2027-01-05T09:30:00Z', end: '2027-01-05T10:30:00Z', attendees: [roomAddress(free)] });
    expect((await storedEvent(server, alice, declinedPath)).attendees[0]!.partstat).to.equal('DECLINED');

    // A later decision reaches the event and the inbox through the processor.
    expect((await server.request('PATCH', `/booking/v1/bookings/${tentative.bookingId}/confirm`, { token: carol })).status).to.equal(200);
    await waitFor(async () => (await storedEvent(server, alice, meetingPath)).attendees.find((a) => a.address === roomAddress(approval))!.partstat === 'ACCEPTED', { what: 'the confirm in the event' });
    // Then the event moves, a REPLY is deleted, and the declined event's object is deleted.
    await put(meeting, { start: '2027-01-06T09:00:00Z', end: '2027-01-06T10:00:00Z', attendees: [roomAddress(free), roomAddress(approval)] });
    const replies = await inboxReplies(server, alice, 'alice');
    expect((await davRequest(server, 'DELETE', replies[0]!.href, { token: alice })).status).to.equal(204);
    expect((await davRequest(server, 'DELETE', declinedPath, { token: alice })).status).to.equal(204);
    // The move sends the approval room back to pending (TENTATIVE); the processor passes the whole log before the workers stop.
    expect((await storedEvent(server, alice, meetingPath)).attendees.map((a) => a.partstat)).to.deep.equal(['ACCEPTED', 'TENTATIVE']);
    await waitFor(async () => !(await processorBehind()), { what: 'the later-decisions processor to pass the log' });

    await workers!.stop();
    workers = undefined;
    const live = await snapshotOf(server.database.db);
    expect(live.calendar_events).to.have.length(4);
    expect(live.calendar_inbox!.length).to.be.greaterThan(6);
    expect((live.calendar_events as { removed: boolean }[]).filter((row) => row.removed)).to.have.length(1);

    await rebuildReadModels(server.database.db, server.services.config);
    expect(await tableSnapshot(server.database.db, 'calendar_events')).to.deep.equal(live.calendar_events);
    expect(await tableSnapshot(server.database.db, 'calendar_inbox')).to.deep.equal(live.calendar_inbox);
    expect(await snapshotOf(server.database.db)).to.deep.equal(live);
  });
});
