import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { SaxesParser } from 'saxes';
import { Temporal } from 'temporal-polyfill';
import { freeBusyQueryAnswer, outboxFreeBusyAnswer } from '../../../src/api/dav/free-busy-answers.js';
import type { Principal } from '../../../src/domain/access/principal.js';
import type { DomainError } from '../../../src/domain/domain-error.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
const dayStart = Temporal.Instant.from('2027-01-05T00:00:00Z');
const day = { start: dayStart, end: dayStart.add({ hours: 24 }) };
const atQuarter = (q: number) => dayStart.add({ minutes: q * 15 });

type Period = { type: string; start: number; end: number };

/** The FREEBUSY periods of a VFREEBUSY text, read back with ical.js. */
function periodsOfCalendar(text: string): Period[] {
  const vfreebusy = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vfreebusy')!;
  return vfreebusy.getAllProperties('freebusy').map((p) => {
    const period = p.getFirstValue() as ICAL.Period;
    return { type: String(p.getParameter('fbtype')), start: period.start.toJSDate().getTime(), end: period.getEnd().toJSDate().getTime() };
  });
}

const touches = (periods: Period[], types: string[], start: Temporal.Instant, end: Temporal.Instant) =>
  periods.some((p) => types.includes(p.type) && p.start < end.epochMilliseconds && p.end > start.epochMilliseconds);

const workspaceAdmin = (workspace: string): Principal => ({ sub: 'admin', workspace, level: 2, groups: [], email: 'admin@example.com' });

async function registerZone(server: TestServer, name: string, body: Record<string, unknown> = {}, token?: string, workspace = server.workspace): Promise<string> {
  const zone = await server.request('POST', '/device/v1/zones', { token, body: { id: `${name}-${randomUUID()}`, name, parentZoneId: null, workspace } });
  expect(zone.status, JSON.stringify(zone.body)).to.equal(201);
  const registered = await server.request('POST', '/booking/v1/resources', { token, body: { resourceType: 'zone', resourceId: zone.body.id, ...body } });
  expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
  return registered.body.id as string;
}

const office = { timeZone: 'Europe/Berlin', hours: { tuesday: [{ start: '08:00', end: '18:00' }] } };

const worldArb = fc.record({
  pool: fc.record({ units: fc.constantFrom(2, 3), bufferBeforeMinutes: fc.constantFrom(0, 15), bufferAfterMinutes: fc.constantFrom(0, 30), autoConfirm: fc.boolean(), office: fc.boolean() }),
  room: fc.record({ bufferBeforeMinutes: fc.constantFrom(0, 30), bufferAfterMinutes: fc.constantFrom(0, 15), autoConfirm: fc.boolean(), office: fc.boolean() }),
  bookings: fc.array(fc.record({ on: fc.integer({ min: 0, max: 4 }), start: fc.integer({ min: 16, max: 80 }), quarters: fc.integer({ min: 1, max: 8 }), units: fc.constantFrom(1, 2) }), {
    maxLength: 10,
  }),
  blackout: fc.option(fc.record({ on: fc.integer({ min: 0, max: 4 }), start: fc.integer({ min: 16, max: 80 }), quarters: fc.integer({ min: 1, max: 12 }) }), { nil: null }),
  probes: fc.array(
    fc.record({
      on: fc.integer({ min: 0, max: 4 }),
      start: fc.integer({ min: 0, max: 94 }),
      quarters: fc.integer({ min: 1, max: 12 }),
      /** A probe next to a booking (on its resource), where buffers decide: after its end or before its start, 0–2 quarters away. */
      near: fc.option(fc.record({ which: fc.nat(), after: fc.boolean(), gap: fc.integer({ min: 0, max: 2 }) }), { nil: null }),
    }),
    { minLength: 4, maxLength: 8 },
  ),
});

describe('free/busy answers through the real server and database (contract §25)', function () {
  this.timeout(600_000);
  let server: TestServer;

  before(async () => {
    // Hundreds of requests a minute by one token, shrinking included: §18's limit is not under test here.
    server = await startTestServer({ RATE_LIMIT_PER_MINUTE: '0' });
    server.services.now = () => now;
  });
  after(() => server.stop());

  it('is free exactly where a one-unit REST create is accepted: 409 on BUSY/BUSY-TENTATIVE, 422 on BUSY-UNAVAILABLE (property over pools, buffers, wholes and parts)', async () => {
    const caller = workspaceAdmin(server.workspace);
    // Combined rooms need the read model written in the append (contract §22, README).
    const combined = server.services.config.projections === 'inline';
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const policy = ({ bufferBeforeMinutes, bufferAfterMinutes, autoConfirm }: { bufferBeforeMinutes: number; bufferAfterMinutes: number; autoConfirm: boolean }) => ({ bufferBeforeMinutes, bufferAfterMinutes, autoConfirm, maxDurationMinutes: 480 });
        const pool = await registerZone(server, 'pool', { units: world.pool.units, bookingPolicy: policy(world.pool), ...(world.pool.office ? { availability: office } : {}) });
        const room = await registerZone(server, 'room', { bookingPolicy: policy(world.room), ...(world.room.office ? { availability: office } : {}) });
        const partA = await registerZone(server, 'part-a');
        const partB = await registerZone(server, 'part-b', { bookingPolicy: { autoConfirm: false } });
        const whole = await registerZone(server, 'whole', combined ? { parts: [partA, partB] } : {});
        const ids = [pool, room, partA, partB, whole];
        for (const b of world.bookings) {
          const body = { bookableResourceId: ids[b.on], title: 'held', startTime: atQuarter(b.start).toString(), endTime: atQuarter(b.start + b.quarters).toString(), units: b.on === 0 ? b.units : 1 };
          await server.request('POST', '/booking/v1/bookings', { body: await bookingBody(server, body) });
        }
        if (world.blackout) {
          const { on, start, quarters } = world.blackout;
          const body = { resourceIds: [ids[on]], from: atQuarter(start).toString(), to: atQuarter(start + quarters).toString(), reason: 'closed' };
          expect((await server.request('POST', '/booking/v1/blackouts', { body })).status).to.equal(201);
        }
        for (const drawn of world.probes) {
          const anchor = drawn.near && world.bookings.length > 0 ? world.bookings[drawn.near.which % world.bookings.length]! : null;
          const probe =
            anchor && drawn.near
              ? { ...drawn, on: anchor.on, start: drawn.near.after ? anchor.start + anchor.quarters + drawn.near.gap : Math.max(0, anchor.start - drawn.near.gap - drawn.quarters) }
              : drawn;
          const id = ids[probe.on]!;
          const periods = periodsOfCalendar(await freeBusyQueryAnswer(server.services, caller, id, day.start, day.end));
          const startTime = atQuarter(probe.start);
          const endTime = atQuarter(Math.min(96, probe.start + probe.quarters));
          const created = await server.request('POST', '/booking/v1/bookings', { body: await bookingBody(server, { bookableResourceId: id, title: 'probe', startTime: startTime.toString(), endTime: endTime.toString() }) });
          const said = `${startTime}–${endTime} on ${probe.on}: ${created.status} ${JSON.stringify(created.body.policy ?? '')} in ${JSON.stringify(periods.map((p) => [p.type, new Date(p.start), new Date(p.end)]))}`;
          if (touches(periods, ['BUSY-UNAVAILABLE'], startTime, endTime)) {
            expect([created.status, ['availability', 'blackout'].includes(created.body.policy)], said).to.deep.equal([422, true]);
          } else if (touches(periods, ['BUSY', 'BUSY-TENTATIVE'], startTime, endTime)) {
            // 422 precedes 409: hours or a blackout hidden under busy time refuse first.
            if (created.status !== 409) expect([created.status, ['availability', 'blackout'].includes(created.body.policy)], said).to.deep.equal([422, true]);
          } else {
            expect(created.status, said).to.equal(201);
            expect((await server.request('PATCH', `/booking/v1/bookings/${created.body.id}/cancel`, { body: {} })).status).to.equal(200);
          }
        }
      }),
      { numRuns: 15 },
    );
  });

  it('answers 404 for a resource the caller has no principal of, and 400 for a range over 62 days', async () => {
    const caller = workspaceAdmin(server.workspace);
    const other = randomUUID();
    const otherToken = server.token({ level: 'LV2', workspace: other });
    const elsewhere = await registerZone(server, 'elsewhere', {}, otherToken, other);
    const inactive = await registerZone(server, 'inactive');
    expect((await server.request('PATCH', `/booking/v1/resources/${inactive}`, { body: { isActive: false } })).status).to.equal(200);
    const code = async (principal: Principal, id: string, end = day.end) => {
      try {
        await freeBusyQueryAnswer(server.services, principal, id, day.start, end);
        return 'answered';
      } catch (error) {
        return (error as DomainError).code;
      }
    };
    expect(await code(caller, elsewhere)).to.equal('not_found');
    expect(await code(caller, inactive)).to.equal('not_found');
    expect(await code(caller, randomUUID())).to.equal('not_found');
    expect(await code(caller, 'not-a-uuid')).to.equal('not_found');
    expect(await code({ ...caller, level: 5, sub: 'guest' }, await registerZone(server, 'visible'))).to.equal('answered');
    expect(await code({ ...caller, level: 1, workspace: null }, elsewhere)).to.equal('answered');
    expect(await code(caller, elsewhere, day.start.add({ hours: 24 * 62 + 1 }))).to.equal('invalid_request');
  });

  it('answers the outbox request of 50 rooms in one schedule-response, each reply equal to the room\'s own free/busy, other addresses 3.7', async () => {
    const rooms: string[] = [];
    for (let i = 0; i < 50; i++) rooms.push(await registerZone(server, `room-${i}`, i % 2 ? { units: 2 } : {}));
    for (const [i, id] of rooms.entries()) {
      if (i % 3 === 0) continue;
      const body = await bookingBody(server, { bookableResourceId: id, title: 'held', startTime: atQuarter(36 + (i % 8)).toString(), endTime: atQuarter(40 + (i % 8)).toString() });
      expect((await server.request('POST', '/booking/v1/bookings', { body })).status).to.equal(201);
    }
    const other = randomUUID();
    const elsewhere = await registerZone(server, 'elsewhere', {}, server.token({ level: 'LV2', workspace: other }), other);
    const domain = server.services.config.caldavAddressDomain;
    const attendees = [
      ...rooms.map((id, i) => (i % 2 ? `urn:uuid:${id}` : `mailto:${id}@${domain}`)),
      'mailto:colleague@example.com',
      `urn:uuid:${elsewhere}`,
      `mailto:${randomUUID()}@${domain}`,
    ];
    const request = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//test//EN',
      'METHOD:REQUEST',
      'BEGIN:VFREEBUSY',
      'UID:fb-50',
      'DTSTAMP:20270104T080000Z',
      'DTSTART:20270105T000000Z',
      'DTEND:20270112T000000Z',
      'ORGANIZER:mailto:admin@example.com',
      ...attendees.map((a) => `ATTENDEE:${a}`),
      'END:VFREEBUSY',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const caller = workspaceAdmin(server.workspace);
    const started = performance.now();
    const answer = await outboxFreeBusyAnswer(server.services, caller, request);
    const elapsed = performance.now() - started;
    expect(answer.status).to.equal(200);
    const responses = scheduleResponses(answer.body);
    expect(responses.map((r) => r.recipient)).to.deep.equal(attendees);
    expect(responses.slice(50).map((r) => [r.status, r.calendarData])).to.deep.equal(Array(3).fill(['3.7;Invalid calendar user', '']));
    const week = { start: Temporal.Instant.from('2027-01-05T00:00:00Z'), end: Temporal.Instant.from('2027-01-12T00:00:00Z') };
    for (const [i, id] of rooms.entries()) {
      const { status, calendarData } = responses[i]!;
      expect(status).to.equal('2.0;Success');
      expect(calendarData.split('\r\n').every((line) => Buffer.byteLength(line) <= 75), 'CRLF lines of at most 75 octets').to.equal(true);
      const reply = new ICAL.Component(ICAL.parse(calendarData));
      expect(reply.getFirstPropertyValue('method')).to.equal('REPLY');
      const vfreebusy = reply.getFirstSubcomponent('vfreebusy')!;
      expect([vfreebusy.getFirstPropertyValue('uid'), vfreebusy.getFirstPropertyValue('organizer'), vfreebusy.getFirstPropertyValue('attendee')]).to.deep.equal(['fb-50', 'mailto:admin@example.com', attendees[i]]);
      const own = periodsOfCalendar(await freeBusyQueryAnswer(server.services, caller, id, week.start, week.end));
      expect(periodsOfCalendar(calendarData)).to.deep.equal(own);
      // A room of one unit with a booking is busy then; a pool of two with one is not.
      expect(own.length).to.equal(i % 3 !== 0 && i % 2 === 0 ? 1 : 0);
    }
    console.log(`      outbox free/busy of 50 rooms for a week: ${elapsed.toFixed(0)} ms`);
  });

  it('refuses a request that is not a VFREEBUSY request with 400, before reading anything', async () => {
    const caller = workspaceAdmin(server.workspace);
    const refusal = await outboxFreeBusyAnswer(server.services, caller, 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n').catch((error: DomainError) => error);
    expect(refusal).to.include({ code: 'invalid_request', message: 'the calendar holds no VFREEBUSY' });
  });
});

/** A create's body naming the resource by its device id, as REST takes it. */
async function bookingBody(server: TestServer, { bookableResourceId, ...rest }: Record<string, unknown>): Promise<Record<string, unknown>> {
  const resource = await server.request('GET', `/booking/v1/resources/${bookableResourceId}`);
  return { resourceType: 'zone', resourceId: resource.body.resourceId, ...rest };
}

/** The responses of a CALDAV:schedule-response, read with a real XML parser. */
function scheduleResponses(xml: string): { recipient: string; status: string; calendarData: string }[] {
  const parser = new SaxesParser({ xmlns: true });
  const responses: { recipient: string; status: string; calendarData: string }[] = [];
  let text = '';
  parser.on('opentag', (tag) => {
    text = '';
    if (tag.uri === 'urn:ietf:params:xml:ns:caldav' && tag.local === 'response') responses.push({ recipient: '', status: '', calendarData: '' });
  });
  parser.on('text', (t) => (text += t));
  parser.on('closetag', (tag) => {
    const current = responses.at(-1);
    if (!current) return;
    if (tag.uri === 'DAV:' && tag.local === 'href') current.recipient = text;
    if (tag.local === 'request-status') current.status = text;
    if (tag.local === 'calendar-data') current.calendarData = text;
  });
  parser.write(xml).close();
  expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>')).to.equal(true);
  return responses;
}
