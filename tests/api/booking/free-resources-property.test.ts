import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
const at = (quarters: number) => now.add({ minutes: quarters * 15 }).toString();

const resourceArb = fc.record({
  capacity: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  hours: fc.constantFrom(null, 'office', 'mornings'),
  maxDurationMinutes: fc.constantFrom(30, 120, 480),
  minNoticeMinutes: fc.constantFrom(0, 240),
  maxAdvanceDays: fc.constantFrom(1, 30),
  maxBookingsPerUser: fc.constantFrom(null, 1),
  autoConfirm: fc.boolean(),
  bufferBeforeMinutes: fc.constantFrom(0, 0, 30),
  bufferAfterMinutes: fc.constantFrom(0, 15),
});
const bookingArb = fc.record({ resource: fc.nat(), start: fc.integer({ min: 0, max: 3 * 96 }), quarters: fc.integer({ min: 1, max: 16 }), booker: fc.constantFrom('alice', 'bob') });
const worldArb = fc.record({
  resources: fc.array(resourceArb, { minLength: 1, maxLength: 5 }),
  bookings: fc.array(bookingArb, { maxLength: 8 }),
  caller: fc.record({ level: fc.constantFrom('LV1', 'LV2', 'LV3', 'LV4'), sub: fc.constantFrom('alice', 'bob') }),
  window: fc.record({ start: fc.integer({ min: 0, max: 3 * 96 }), quarters: fc.integer({ min: 1, max: 12 }) }),
});

const availabilityOf = (hours: string | null) => {
  if (hours === null) return undefined;
  const windows = hours === 'office' ? [{ start: '08:00', end: '18:00' }] : [{ start: '06:00', end: '12:00' }];
  return { timeZone: 'Europe/Berlin', hours: { monday: windows, tuesday: windows, wednesday: windows, thursday: windows, friday: windows } };
};

/**
 * The search against the create through the real server and database: what the SQL narrows
 * (resources matching, bookings in the window, the booker's counts) must not change a verdict.
 */
describe('the free search and the create agree on every resource, through the server (property)', function () {
  this.timeout(240_000);
  let server: TestServer;
  let run = 0;

  before(async () => {
    server = await startTestServer();
    server.services.now = () => now;
  });
  after(() => server.stop());

  it('lists a resource exactly when the caller\'s create of the window on it is accepted', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async ({ resources, bookings, caller, window }) => {
        run += 1;
        const group = `run-${run}`;
        const zones = resources.map((_, i) => `${group}-zone-${i}`);
        for (const [i, r] of resources.entries()) {
          expect((await server.request('POST', '/device/v1/zones', { body: { id: zones[i], name: `Room ${i}`, parentZoneId: null, workspace: server.workspace } })).status).to.equal(201);
          const { hours, capacity, ...policy } = r;
          const registered = await server.request('POST', '/booking/v1/resources', {
            body: { resourceType: 'zone', resourceId: zones[i], groupId: group, ...(capacity === null ? {} : { capacity }), availability: availabilityOf(hours), bookingPolicy: policy },
          });
          expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
        }
        for (const b of bookings) {
          const token = server.token({ level: 'LV4', sub: b.booker });
          const body = { resourceType: 'zone', resourceId: zones[b.resource % zones.length], title: 'held', startTime: at(b.start), endTime: at(b.start + b.quarters) };
          await server.request('POST', '/booking/v1/bookings', { token, body });
        }
        const token = server.token({ level: caller.level as 'LV1', sub: caller.sub, workspace: caller.level === 'LV1' ? null : server.workspace });
        const lv1 = caller.level === 'LV1' ? `&workspace=${server.workspace}` : '';
        const found = await server.request('GET', `/booking/v1/free-resources?from=${at(window.start)}&to=${at(window.start + window.quarters)}&groupId=${group}&limit=100${lv1}`, { token });
        expect(found.status, JSON.stringify(found.body)).to.equal(200);
        const listed = new Set((found.body.resources as { resourceId: string }[]).map((r) => r.resourceId));
        expect(found.body.total).to.equal(listed.size);
        for (const zone of zones) {
          const body = { resourceType: 'zone', resourceId: zone, title: 'probe', startTime: at(window.start), endTime: at(window.start + window.quarters), ...(caller.level === 'LV1' ? { workspace: server.workspace } : {}) };
          const created = await server.request('POST', '/booking/v1/bookings', { token, body });
          expect(listed.has(zone), `${zone}: create answered ${created.status} ${JSON.stringify(created.body)}`).to.equal(created.status === 201);
          // Give the time back, so that the next probe decides on the same bookings as the search.
          if (created.status === 201) expect((await server.request('PATCH', `/booking/v1/bookings/${created.body.id}/cancel`, { body: {} })).status).to.equal(200);
        }
      }),
      { numRuns: 25 },
    );
  });
});
