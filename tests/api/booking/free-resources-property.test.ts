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
  units: fc.constantFrom(1, 2, 2, 3),
});
/** Bookings and the blackout start near the window searched (`start` quarters from it): the world is crowded where it is asked. */
const bookingArb = fc.record({
  resource: fc.nat(),
  start: fc.integer({ min: -8, max: 8 }),
  quarters: fc.integer({ min: 1, max: 4 }),
  booker: fc.constantFrom('alice', 'bob'),
  units: fc.constantFrom(1, 1, 2),
});
const worldArb = fc.record({
  resources: fc.array(resourceArb, { minLength: 1, maxLength: 5 }),
  /** Wholes (contract §22): the last resource holds the first two; a second one, before it, holds the second (a part they share). */
  wholes: fc.constantFrom(0, 1, 2),
  bookings: fc.array(bookingArb, { maxLength: 8 }),
  blackout: fc.option(fc.record({ resource: fc.nat(), start: fc.integer({ min: -8, max: 8 }), quarters: fc.integer({ min: 1, max: 16 }) }), { nil: null }),
  quota: fc.option(fc.record({ limit: fc.constantFrom(1, 2), unit: fc.constantFrom('bookings', 'hours'), onOne: fc.option(fc.nat(), { nil: null }) }), { nil: null }),
  caller: fc.record({ level: fc.constantFrom('LV1', 'LV2', 'LV3', 'LV4'), sub: fc.constantFrom('alice', 'bob') }),
  window: fc.record({ start: fc.integer({ min: 8, max: 32 }), quarters: fc.integer({ min: 1, max: 8 }), units: fc.constantFrom(1, 1, 1, 2), limit: fc.integer({ min: 1, max: 6 }) }),
});

type Listed = { id: string; resourceId: string; capacity: number | null; resourceName: string | null; units: number; availableUnits: number };

/** Contract §16's order: capacity ascending (none last), then resourceName in code points, then id. */
function inOrder(a: Listed, b: Listed): boolean {
  if (a.capacity !== b.capacity) return b.capacity === null || (a.capacity !== null && a.capacity < b.capacity);
  if (a.resourceName !== b.resourceName) return b.resourceName === null || (a.resourceName !== null && a.resourceName < b.resourceName);
  return a.id < b.id;
}

/** The indices of the resources that are wholes, and their parts, when `wholes` are drawn and there are enough resources. */
function wholesOf(count: number, wholes: number): Map<number, number[]> {
  const drawn = new Map<number, number[]>();
  if (wholes >= 1 && count >= 3) drawn.set(count - 1, [0, 1]);
  if (wholes >= 2 && count >= 4) drawn.set(count - 2, [1]);
  return drawn;
}

const availabilityOf = (hours: string | null) => {
  if (hours === null) return undefined;
  const windows = hours === 'office' ? [{ start: '08:00', end: '18:00' }] : [{ start: '06:00', end: '12:00' }];
  return { timeZone: 'Europe/Berlin', hours: { monday: windows, tuesday: windows, wednesday: windows, thursday: windows, friday: windows } };
};

/**
 * The search against the create through the real server and database: what the SQL narrows
 * (resources matching, bookings in the window, the booker's counts, blackouts, quotas, the units of
 * pools, wholes and their parts) must not change a verdict; a page is the first `limit` of them in
 * the contract's order, and `total` counts them all.
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
      fc.asyncProperty(worldArb, async ({ resources, wholes, bookings, blackout, quota, caller, window }) => {
        run += 1;
        const group = `run-${run}`;
        const zones = resources.map((_, i) => `${group}-zone-${i}`);
        // Combined rooms need the read model written in the append (contract §22, docs/booking.md).
        const whole = wholesOf(resources.length, server.services.config.projections === 'async' ? 0 : wholes);
        const combined = new Set([...whole.keys(), ...[...whole.values()].flat()]);
        const ids: string[] = [];
        for (const [i, r] of resources.entries()) {
          expect((await server.request('POST', '/device/v1/zones', { body: { id: zones[i], name: `Room ${i}`, parentZoneId: null, workspace: server.workspace } })).status).to.equal(201);
          const { hours, capacity, units, ...policy } = r;
          const parts = whole.get(i)?.map((part) => ids[part]);
          const registered = await server.request('POST', '/booking/v1/resources', {
            body: {
              resourceType: 'zone',
              resourceId: zones[i],
              groupId: group,
              ...(capacity === null ? {} : { capacity }),
              units: combined.has(i) ? 1 : units,
              ...(parts ? { parts } : {}),
              availability: availabilityOf(hours),
              bookingPolicy: policy,
            },
          });
          expect(registered.status, JSON.stringify(registered.body)).to.equal(201);
          ids.push(registered.body.id as string);
        }
        for (const b of bookings) {
          const token = server.token({ level: 'LV4', sub: b.booker });
          const body = { resourceType: 'zone', resourceId: zones[b.resource % zones.length], title: 'held', startTime: at(window.start + b.start), endTime: at(window.start + b.start + b.quarters), units: b.units };
          await server.request('POST', '/booking/v1/bookings', { token, body });
        }
        if (blackout) {
          const body = { resourceIds: [ids[blackout.resource % ids.length]], from: at(window.start + blackout.start), to: at(window.start + blackout.start + blackout.quarters), reason: 'closed' };
          expect((await server.request('POST', '/booking/v1/blackouts', { body })).status).to.equal(201);
        }
        if (quota) {
          const matchers = quota.onOne === null ? { groupId: group } : { resourceIds: [ids[quota.onOne % ids.length]] };
          const body = { ...matchers, limit: quota.limit, unit: quota.unit, per: 'day', timeZone: 'Europe/Berlin' };
          expect((await server.request('POST', '/booking/v1/quotas', { body })).status).to.equal(201);
        }
        const token = server.token({ level: caller.level as 'LV1', sub: caller.sub, workspace: caller.level === 'LV1' ? null : server.workspace });
        const lv1 = caller.level === 'LV1' ? `&workspace=${server.workspace}` : '';
        const search = async (limit: number) => {
          const found = await server.request('GET', `/booking/v1/free-resources?from=${at(window.start)}&to=${at(window.start + window.quarters)}&groupId=${group}&units=${window.units}&limit=${limit}${lv1}`, { token });
          expect(found.status, JSON.stringify(found.body)).to.equal(200);
          return found.body as { total: number; resources: Listed[] };
        };
        const all = await search(100);
        const page = await search(window.limit);
        expect(all.total).to.equal(all.resources.length);
        expect(page.total).to.equal(all.total);
        expect(page.resources.map((r) => r.id)).to.deep.equal(all.resources.slice(0, window.limit).map((r) => r.id));
        for (const [i, r] of all.resources.entries()) {
          if (i > 0) expect(inOrder(all.resources[i - 1]!, r), `${all.resources[i - 1]!.id} before ${r.id}`).to.equal(true);
          expect(r.availableUnits).to.be.within(window.units, r.units);
        }
        const listed = new Set(all.resources.map((r) => r.resourceId));
        for (const zone of zones) {
          const body = { resourceType: 'zone', resourceId: zone, title: 'probe', startTime: at(window.start), endTime: at(window.start + window.quarters), units: window.units, ...(caller.level === 'LV1' ? { workspace: server.workspace } : {}) };
          const created = await server.request('POST', '/booking/v1/bookings', { token, body });
          expect(listed.has(zone), `${zone}: create answered ${created.status} ${JSON.stringify(created.body)}`).to.equal(created.status === 201);
          // Give the time back, so that the next probe decides on the same bookings as the search.
          if (created.status === 201) expect((await server.request('PATCH', `/booking/v1/bookings/${created.body.id}/cancel`, { body: {} })).status).to.equal(200);
        }
      }),
      { numRuns: 50 },
    );
  });
});
