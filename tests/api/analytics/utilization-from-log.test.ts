import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { completeBooking, markNoShow } from '../../../src/commands/booking/system-moves.js';
import { openMinutesPerPeriod } from '../../../src/domain/analytics/open-minutes.js';
import { utilizationPeriods, type UtilizationGrouping } from '../../../src/domain/analytics/utilization-periods.js';
import type { Booking } from '../../../src/domain/booking/booking.js';
import { isBookingEvent } from '../../../src/domain/booking/booking-events.js';
import { evolveResource } from '../../../src/domain/resource/evolve-resource.js';
import type { ResourceEvent } from '../../../src/domain/resource/resource-events.js';
import { resourceStreamId, type Resource } from '../../../src/domain/resource/resource.js';
import { rebuildReadModels } from '../../../src/projections/rebuild-read-models.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { bookingBody, registerZone, setClock } from '../booking/booking-api.js';

const held = new Set(['confirmed', 'completed', 'no_show']);
const minute = 60_000;

describe('utilization equals a recomputation from the log', function () {
  this.timeout(120_000);
  let server: TestServer;
  let admin: string;
  let alice: string;
  const ids: string[] = [];
  const range = { from: '2026-10-19T00:00:00Z', to: '2026-11-09T00:00:00Z' };

  const utilization = async (query: Record<string, string>) => {
    const res = await server.request('GET', `/booking/v1/analytics/utilization?${new URLSearchParams(query)}`, { token: admin });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.rows as unknown[];
  };

  /** Folds every resource's stream: the resource as it is now, and each booking's last state. */
  async function foldLog(): Promise<{ resource: Resource; bookings: Booking[] }[]> {
    const folded = [];
    for (const id of ids) {
      let resource: Resource | null = null;
      const bookings = new Map<string, Booking>();
      for (const event of await server.services.eventStore.readStream(resourceStreamId(id))) {
        if (isBookingEvent(event)) bookings.set(event.data.booking.id, event.data.booking);
        else resource = evolveResource(resource, event as unknown as ResourceEvent);
      }
      folded.push({ resource: resource!, bookings: [...bookings.values()] });
    }
    return folded;
  }

  /** The rows the contract describes, counted by hand from the folded log. */
  async function recomputed(query: { from: string; to: string; tz?: string; groupBy: UtilizationGrouping }) {
    const periods = utilizationPeriods(Temporal.Instant.from(query.from), Temporal.Instant.from(query.to), query.groupBy, query.tz ?? 'UTC');
    const rows: Record<string, unknown>[] = [];
    for (const { resource, bookings } of (await foldLog()).sort((a, b) => a.resource.id.localeCompare(b.resource.id))) {
      const open = openMinutesPerPeriod(resource.availability, periods);
      periods.forEach((period, i) => {
        let bookedMs = 0;
        const counts = { bookings: 0, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 };
        for (const b of bookings.filter((b) => !b.isSeriesParent)) {
          const start = Date.parse(b.startTime);
          const end = Date.parse(b.endTime);
          if (held.has(b.status)) bookedMs += Math.max(0, Math.min(end, period.endMs) - Math.max(start, period.startMs));
          if (start < period.startMs || start >= period.endMs) continue;
          counts.bookings += 1;
          if (b.status === 'cancelled') counts.cancelled += 1;
          if (b.status === 'no_show') counts.noShows += 1;
          if (b.status === 'completed') counts.completed += 1;
          if (b.checkedInAt !== null) counts.checkedIn += 1;
        }
        const bookedMinutes = bookedMs / minute;
        rows.push({
          resourceId: resource.id,
          ...(period.day === null ? {} : { day: period.day }),
          openMinutes: open[i],
          bookedMinutes,
          utilization: open[i]! > 0 ? bookedMinutes / open[i]! : null,
          ...counts,
        });
      });
    }
    return rows;
  }

  before(async () => {
    server = await startTestServer();
    admin = server.token({ level: 'LV2', sub: 'admin' });
    alice = server.token({ level: 'LV4', sub: 'alice' });
    setClock(server, '2026-10-19T05:00:00Z');
    const weekday = [{ start: '08:00', end: '18:00' }];
    ids.push(
      await registerZone(server, 'office', {
        availability: { timeZone: 'Europe/Berlin', hours: { monday: weekday, tuesday: weekday, wednesday: weekday, thursday: weekday, friday: weekday, sunday: [{ start: '01:00', end: '04:00' }] } },
      }),
      await registerZone(server, 'lounge'),
      await registerZone(server, 'studio', {
        availability: { timeZone: 'America/New_York', hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '06:00', end: '22:00' }]])) },
        bookingPolicy: { autoConfirm: false },
      }),
    );

    const created: Booking[] = [];
    const create = async (zoneId: string, start: Temporal.ZonedDateTime, minutes: number) => {
      const end = start.add({ minutes });
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody(zoneId, start.toInstant().toString(), end.toInstant().toString()), token: alice });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      created.push(res.body);
    };
    for (let d = 0; d < 21; d++) {
      const date = Temporal.PlainDate.from('2026-10-19').add({ days: d });
      const at = (zone: string, time: string) => date.toZonedDateTime({ timeZone: zone, plainTime: time });
      if (date.dayOfWeek <= 5) {
        await create('office', at('Europe/Berlin', '09:00'), 90);
        await create('office', at('Europe/Berlin', '14:00'), 180);
      } else if (date.dayOfWeek === 7) {
        // 01:00–04:00 wall clock: 4 hours on the fall-back night of 25 October.
        await create('office', at('Europe/Berlin', '01:00'), date.toString() === '2026-10-25' ? 240 : 180);
      }
      await create('lounge', at('UTC', '10:00'), 60);
      if (d % 3 === 0) await create('lounge', at('UTC', '22:00'), 240);
      await create('studio', at('America/New_York', '07:00'), 120);
      await create('studio', at('America/New_York', '20:00'), 120);
    }
    const series = await server.request('POST', '/booking/v1/bookings/bulk', {
      body: { ...bookingBody('lounge', '2026-10-19T12:00:00Z', '2026-10-19T13:30:00Z'), recurrenceRule: 'FREQ=WEEKLY;COUNT=3' },
      token: alice,
    });
    expect(series.status, JSON.stringify(series.body)).to.equal(201);
    expect((await server.request('PATCH', `/booking/v1/bookings/${series.body.occurrences[1].id}/cancel`, { token: alice, body: {} })).status).to.equal(200);
    created.push(series.body.occurrences[0], series.body.occurrences[2]);

    const patch = async (id: string, action: string, token: string, body?: unknown) => {
      const res = await server.request('PATCH', `/booking/v1/bookings/${id}${action}`, { token, body });
      expect(res.status, `${action} ${JSON.stringify(res.body)}`).to.equal(200);
    };
    const later: { atMs: number; act: () => Promise<unknown> }[] = [];
    for (const [k, b] of created.entries()) {
      const start = Date.parse(b.startTime);
      const end = Date.parse(b.endTime);
      if (b.status === 'pending' && k % 7 !== 6) await patch(b.id, '/confirm', admin);
      if (k % 7 === 0) await patch(b.id, '/cancel', alice, {});
      if (k % 7 === 1) later.push({ atMs: start + minute, act: () => patch(b.id, '/checkin', alice) }, { atMs: start + 30 * minute, act: () => patch(b.id, '/checkout', alice) });
      if (k % 7 === 2) later.push({ atMs: start + 20 * minute, act: () => markNoShow(server.services, b.id) });
      if (k % 7 === 3) later.push({ atMs: end, act: () => completeBooking(server.services, b.id) });
      if (k % 7 === 4) later.push({ atMs: start + 5 * minute, act: () => patch(b.id, '/checkin', alice) });
      if (k % 7 === 5) await patch(b.id, '', alice, { startTime: b.startTime, endTime: new Date(end - 15 * minute).toISOString() });
    }
    for (const { atMs, act } of later.sort((a, b) => a.atMs - b.atMs)) {
      setClock(server, new Date(atMs).toISOString());
      await act();
    }
  });
  after(() => server.stop());

  const queries: { tz?: string; groupBy: UtilizationGrouping }[] = [
    { groupBy: 'resource' },
    { tz: 'Europe/Berlin', groupBy: 'day' },
    { tz: 'America/New_York', groupBy: 'day' },
  ];
  for (const query of queries) {
    it(`per ${query.groupBy}${query.tz ? ` in ${query.tz}` : ''}`, async () => {
      const rows = await utilization({ ...range, ...query });
      const expected = await recomputed({ ...range, ...query });
      expect(rows).to.have.length(query.groupBy === 'day' ? 3 * 22 : 3);
      expect(rows).to.deep.equal(expected);
      // The log holds every kind the figures count: a match of zeros would prove nothing.
      const total = (field: string) => (rows as Record<string, number>[]).reduce((sum, r) => sum + r[field]!, 0);
      for (const field of ['bookedMinutes', 'bookings', 'cancelled', 'noShows', 'completed', 'checkedIn']) expect(total(field), field).to.be.greaterThan(0);
    });
  }

  it('and after a rebuild of the read models, a range cut mid-day too', async () => {
    const cut = { from: '2026-10-24T13:07:00+02:00', to: '2026-11-02T05:45:00-05:00', tz: 'Europe/Berlin', groupBy: 'day' as const };
    const before = await utilization(cut);
    expect(before).to.deep.equal(await recomputed(cut));
    expect((before as { bookings: number }[]).some((r) => r.bookings > 0)).to.equal(true);
    await rebuildReadModels(server.database.db, server.services.config);
    expect(await utilization(cut)).to.deep.equal(before);
  });
});
