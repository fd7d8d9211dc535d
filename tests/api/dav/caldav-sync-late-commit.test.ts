import { expect } from 'chai';
import type pg from 'pg';
import { renameResource } from '../../../src/commands/device/rename-resource.js';
import { openSession } from '../../support/database-session.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';
import { calendarQueryBody, davRequest, prop, syncBody, D } from './dav-requests.js';

/**
 * A sync token must not pass over a change that a slower transaction commits after a faster one:
 * the read model's row written by the slow one (a projection running late, a follower of the log)
 * shows up in a later sync, never in neither.
 */
describe('CalDAV sync-collection, calendar-query and late commits (contract §25)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let session: pg.Client;

  before(async function () {
    // Followers of the log wait below an open service transaction (the same horizon), so the REST
    // write in the middle would wait for this one: the slow writer here stands for them instead.
    if (process.env.PROJECTIONS === 'async') this.skip();
    server = await startTestServer();
    if (!server.database.isServer) {
      await server.stop();
      this.skip(); // one connection: no transaction can run beside another
    }
    session = await openSession(server.database.config!, 'service');
  });
  after(async () => {
    await session?.end();
    await server?.stop();
  });

  it('reports a row committed late by a slower transaction in the next sync', async () => {
    const room = await registerZone(server, 'room-late');
    setClock(server, '2027-05-01T08:00:00Z');
    const calendar = `/dav/calendars/resources/${room}/bookings/`;
    const create = async (start: string, end: string) => {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-late', start, end) });
      expect(res.status).to.equal(201);
      return res.body.id as string;
    };
    const slow = await create('2027-05-02T09:00:00Z', '2027-05-02T10:00:00Z');
    const first = await davRequest(server, 'REPORT', calendar, { body: syncBody() });

    // A slower writer takes its transaction id first and commits last.
    await session.query('begin');
    await session.query(`update bookings set title = 'Written late' where id = $1`, [slow]);
    const fast = await create('2027-05-03T09:00:00Z', '2027-05-03T10:00:00Z');
    const second = await davRequest(server, 'REPORT', calendar, { body: syncBody(first.syncToken) });
    expect(second.members.map((m) => m.href)).to.deep.equal([`${calendar}${fast}.ics`]);
    await session.query('commit');

    const third = await davRequest(server, 'REPORT', calendar, { body: syncBody(second.syncToken) });
    const hrefs = third.members.map((m) => m.href);
    expect(hrefs).to.include(`${calendar}${slow}.ics`);
    const object = await davRequest(server, 'GET', `${calendar}${slow}.ics`);
    expect(object.text).to.include('SUMMARY:Written late');
    expect(prop(third.members.find((m) => m.href.includes(slow)), D, 'getetag')!.text).to.equal(object.headers.get('etag'));
  });

  it('answers a calendar-query read again with every change: a REST create, a rename, and a row committed late by a slower transaction', async () => {
    const room = await registerZone(server, 'room-query');
    setClock(server, '2027-05-01T08:00:00Z');
    const calendar = `/dav/calendars/resources/${room}/bookings/`;
    const month = async () => {
      const res = await davRequest(server, 'REPORT', calendar, { depth: '1', body: calendarQueryBody('20270501T000000Z', '20270601T000000Z') });
      expect(res.status).to.equal(207);
      return res.members.map((m) => prop(m, 'urn:ietf:params:xml:ns:caldav', 'calendar-data')?.text ?? '');
    };
    const create = async (start: string, end: string) => {
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('room-query', start, end) });
      expect(res.status).to.equal(201);
      return res.body.id as string;
    };
    const slow = await create('2027-05-02T09:00:00Z', '2027-05-02T10:00:00Z');
    expect(await month()).to.have.length(1);
    expect(await month(), 'read again, unchanged').to.have.length(1);

    await create('2027-05-03T09:00:00Z', '2027-05-03T10:00:00Z');
    expect(await month()).to.have.length(2);
    expect(await renameResource(server.services, room, 'Blue room', 'device-service')).to.equal(true);
    expect((await month()).every((text) => text.includes('LOCATION:Blue room'))).to.equal(true);

    await session.query('begin');
    await session.query(`update bookings set title = 'Written late' where id = $1`, [slow]);
    await create('2027-05-04T09:00:00Z', '2027-05-04T10:00:00Z');
    expect(await month()).to.have.length(3);
    await session.query('commit');
    expect((await month()).some((text) => text.includes('SUMMARY:Written late'))).to.equal(true);
  });
});
