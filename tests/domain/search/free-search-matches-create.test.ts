import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../../src/domain/access/principal.js';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { decideCreateBooking } from '../../../src/domain/booking/decide-create-booking.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { occupiedMsOf } from '../../../src/domain/booking/occupied-range.js';
import { findFreeResources } from '../../../src/domain/search/find-free-resources.js';
import { freePage } from '../../../src/domain/search/free-page.js';
import { admittedKeys, keysOf } from '../../../src/domain/search/free-search-keys.js';
import { unitsHeldBy } from '../../../src/domain/booking/unit-use.js';
import { compareCandidates } from '../../../src/domain/search/free-resource-candidate.js';
import type { FreeResourceCandidate } from '../../../src/domain/search/free-resource-candidate.js';
import { suggestWindows } from '../../../src/domain/search/suggest-windows.js';
import { findFreeForSeries } from '../../../src/domain/search/find-free-for-series.js';
import { decideCreateSeries } from '../../../src/domain/booking/series/decide-create-series.js';
import { previewSeriesOccurrences, type OccurrencePreview } from '../../../src/domain/booking/series/preview-series-occurrences.js';
import { utcText } from '../../../src/domain/booking/booking-time.js';
import { emptyQuotaLedger } from '../../../src/domain/quota/quota-refusal.js';
import { policyVerdictsOf } from '../../../src/domain/search/find-free-resources.js';
import type { Availability, Resource } from '../../../src/domain/resource/resource.js';
import { actor, booking, now, resource } from '../booking/booking-fixtures.js';

const minute = 60_000;
const statuses: BookingStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'];
const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu'];

const availabilityArb: fc.Arbitrary<Availability | null> = fc.option(
  fc.record({
    timeZone: fc.constantFrom(...zones),
    hours: fc.record(
      { monday: fc.constant([{ start: '08:00', end: '18:00' }]), tuesday: fc.constantFrom([{ start: '09:00', end: '12:00' }, { start: '13:00', end: '24:00' }], [{ start: '00:00', end: '24:00' }], []), wednesday: fc.constant([{ start: '07:30', end: '19:45' }]) },
      { requiredKeys: [] },
    ),
  }),
  { nil: null },
);

const resourceArb = (index: number): fc.Arbitrary<Resource> =>
  fc
    .record({
      capacity: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
      name: fc.option(fc.constantFrom('Alpha', 'Beta', 'Gamma'), { nil: null }),
      isActive: fc.boolean(),
      availability: availabilityArb,
      maxDurationMinutes: fc.constantFrom(30, 60, 120, 480, 1440),
      maxAdvanceDays: fc.constantFrom(1, 2, 30),
      minNoticeMinutes: fc.constantFrom(0, 30, 600),
      maxBookingsPerUser: fc.constantFrom(null, 1, 2, 3),
      bufferBeforeMinutes: fc.constantFrom(0, 0, 15, 60),
      bufferAfterMinutes: fc.constantFrom(0, 0, 10, 30),
    })
    .map((r) =>
      resource(
        {
          maxDurationMinutes: r.maxDurationMinutes,
          maxAdvanceDays: r.maxAdvanceDays,
          minNoticeMinutes: r.minNoticeMinutes,
          maxBookingsPerUser: r.maxBookingsPerUser,
          bufferBeforeMinutes: r.bufferBeforeMinutes,
          bufferAfterMinutes: r.bufferAfterMinutes,
        },
        {
          id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
          resourceId: `zone-${index}`,
          resourceName: r.name,
          capacity: r.capacity,
          isActive: r.isActive,
          availability: r.availability,
        },
      ),
    );

/** Bookings spread over the three days after `now`, in quarter hours. */
const bookingsArb = (r: Resource): fc.Arbitrary<Booking[]> =>
  fc.array(
    fc.record({
      start: fc.integer({ min: -8, max: 3 * 96 }),
      quarters: fc.integer({ min: 1, max: 24 }),
      status: fc.constantFrom(...statuses),
      booker: fc.constantFrom('alice', 'bob'),
      parent: fc.boolean(),
      before: fc.constantFrom(0, 30),
      after: fc.constantFrom(0, 15),
    }),
    { maxLength: 6 },
  ).map((drawn) =>
    drawn.map((d) => {
      const start = now.epochMilliseconds + d.start * 15 * minute;
      return booking({
        bookableResourceId: r.id,
        resourceId: r.resourceId,
        startTime: new Date(start).toISOString(),
        endTime: new Date(start + d.quarters * 15 * minute).toISOString(),
        status: d.status,
        bookerProfileId: d.booker,
        isSeriesParent: d.parent && d.status === 'confirmed' && d.quarters > 20,
        bufferBeforeMinutes: d.before,
        bufferAfterMinutes: d.after,
      });
    }),
  );

const worldArb = fc
  .integer({ min: 1, max: 6 })
  .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => resourceArb(i + 1))))
  .chain((resources) => fc.tuple(fc.constant(resources), fc.tuple(...resources.map(bookingsArb))));

const callerArb: fc.Arbitrary<Principal> = fc.record({ level: fc.constantFrom(1, 2, 3, 4, 5) as fc.Arbitrary<Principal['level']>, sub: fc.constantFrom('alice', 'bob') }).map(({ level, sub }) => actor(level, sub));

const windowArb = fc.record({ start: fc.integer({ min: -4, max: 3 * 96 }), quarters: fc.integer({ min: 1, max: 40 }), offsetMinutes: fc.constantFrom(0, 7) });

const held = (b: Booking) => !b.isSeriesParent && (b.status === 'pending' || b.status === 'confirmed');

/** What POST /bookings decides on the resource with every booking it holds in the state. */
function createAccepts(r: Resource, bookings: readonly Booking[], caller: Principal, start: Temporal.Instant, end: Temporal.Instant): boolean {
  const guest = caller.level === 5;
  const limit = r.bookingPolicy.maxBookingsPerUser ?? Infinity;
  const ofBooker = bookings.filter((b) => held(b) && b.bookerProfileId === caller.sub).length;
  const state = { resource: r, overlapping: bookings, activeBookingsOfBooker: guest ? 0 : Math.min(ofBooker, limit), quotas: [], blackouts: [] };
  try {
    // A guest cannot book: the search skips the caller's checks, as a user with no bookings.
    decideCreateBooking({ id: 'new', title: 'x', startTime: start, endTime: end }, state, guest ? { ...caller, level: 4 } : caller, now);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

/**
 * The read side's narrowing: each resource's held bookings whose occupied ranges meet the window
 * widened by the widest buffers of the resources, and the booker's count.
 */
function candidatesOf(resources: Resource[], bookings: Booking[][], caller: Principal, fromMs: number, toMs: number): FreeResourceCandidate[] {
  const before = Math.max(...resources.map((r) => r.bookingPolicy.bufferBeforeMinutes)) * minute;
  const after = Math.max(...resources.map((r) => r.bookingPolicy.bufferAfterMinutes)) * minute;
  return resources.map((r, i) => ({
    resource: r,
    policyKey: JSON.stringify([r.isActive, r.bookingPolicy, r.availability]),
    bookings: bookings[i]!.filter((b) => {
      const { startMs, endMs } = occupiedMsOf(b);
      return held(b) && startMs < toMs + after && endMs > fromMs - before;
    }),
    activeBookingsOfBooker: Math.min(bookings[i]!.filter((b) => held(b) && b.bookerProfileId === caller.sub).length, r.bookingPolicy.maxBookingsPerUser ?? 0),
  }));
}

describe('the free search gives the create\'s verdict on every resource (property)', () => {
  it('lists a resource exactly when a create of the window on it would be accepted', () => {
    fc.assert(
      fc.property(worldArb, callerArb, windowArb, ([resources, bookings], caller, w) => {
        const start = now.add({ minutes: w.start * 15 + w.offsetMinutes });
        const end = start.add({ minutes: w.quarters * 15 });
        const candidates = candidatesOf(resources, bookings, caller, start.epochMilliseconds, end.epochMilliseconds);
        const { free, taken } = findFreeResources(candidates, { startTime: start, endTime: end, actor: caller, now, quotas: [], blackouts: [] });
        const expected = resources.filter((r, i) => createAccepts(r, bookings[i]!, caller, start, end)).map((r) => r.id);
        expect(free.map((r) => r.resource.id).sort()).to.deep.equal([...expected].sort());
        expect(free.length + taken.length).to.equal(resources.length);
      }),
      { numRuns: 400 },
    );
  });

  it('pages a window exactly as the create decides, with the verdict decided once per policy key', () => {
    fc.assert(
      fc.property(worldArb, callerArb, windowArb, fc.integer({ min: 1, max: 4 }), ([resources, bookings], caller, w, limit) => {
        const start = now.add({ minutes: w.start * 15 + w.offsetMinutes });
        const end = start.add({ minutes: w.quarters * 15 });
        const candidates = candidatesOf(resources, bookings, caller, start.epochMilliseconds, end.epochMilliseconds).sort((a, b) => compareCandidates(a.resource, b.resource));
        const search = { startTime: start, endTime: end, actor: caller, now, quotas: [], blackouts: [] };
        const page = freePage(candidates, {
          keys: admittedKeys(keysOf(candidates), search),
          units: 1,
          limit,
          blackouts: [],
          quotas: [],
          activeOfBooker: (id) => candidates.find((c) => c.resource.id === id)!.activeBookingsOfBooker,
          held: new Map(candidates.map((c) => [c.resource.id, unitsHeldBy(c.bookings)])),
          sharing: new Map(),
        });
        const expected = candidates.filter((c) => createAccepts(c.resource, bookings[resources.indexOf(c.resource)]!, caller, start, end)).map((c) => c.resource.id);
        expect(page.total).to.equal(expected.length);
        expect(page.free.map((r) => r.resource.id)).to.deep.equal(expected.slice(0, limit));
        expect(page.free.every((r) => r.availableUnits === 1)).to.equal(true);
      }),
      { numRuns: 400 },
    );
  });

  it('suggests only windows a create would accept, on resources not free at the asked time', () => {
    fc.assert(
      fc.property(worldArb, callerArb, windowArb, fc.constantFrom(...zones), ([resources, bookings], caller, w, tz) => {
        const start = now.add({ minutes: w.start * 15 });
        const end = start.add({ minutes: w.quarters * 15 });
        const all = candidatesOf(resources, bookings, caller, -Infinity, Infinity);
        const search = { startTime: start, endTime: end, actor: caller, now, quotas: [], blackouts: [] };
        const { free, taken } = findFreeResources(all, search);
        const suggestions = suggestWindows(taken, search, tz, policyVerdictsOf(all));
        expect(suggestions.length).to.be.at.most(5);
        for (const s of suggestions) {
          const i = resources.findIndex((r) => r.id === s.resource.id);
          expect(free.map((r) => r.resource.id)).to.not.include(s.resource.id);
          expect(createAccepts(resources[i]!, bookings[i]!, caller, s.startTime, s.endTime)).to.equal(true);
          expect(s.startTime.toZonedDateTimeISO(tz).toPlainDate().equals(start.toZonedDateTimeISO(tz).toPlainDate())).to.equal(true);
          expect(Math.abs(s.startTime.epochMilliseconds - start.epochMilliseconds) % (15 * minute)).to.equal(0);
        }
        const distances = suggestions.map((s) => Math.abs(s.startTime.epochMilliseconds - start.epochMilliseconds));
        expect(distances).to.deep.equal([...distances].sort((a, b) => a - b));
      }),
      { numRuns: 200 },
    );
  });

  it('lists a resource for a series exactly when the bulk create of it would be accepted', () => {
    const ruleArb = fc.record({ freq: fc.constantFrom('DAILY', 'WEEKLY'), count: fc.integer({ min: 2, max: 6 }), zone: fc.constantFrom(undefined, ...zones) });
    fc.assert(
      fc.property(worldArb, callerArb, windowArb, ruleArb, ([resources, bookings], caller, w, rule) => {
        const start = now.add({ minutes: w.start * 15 });
        const end = start.add({ minutes: Math.min(w.quarters, 16) * 15 });
        const command = { parentId: 'p', newId: () => 'n', title: 's', startTime: start, endTime: end, recurrenceRule: `FREQ=${rule.freq};COUNT=${rule.count}`, timeZone: rule.zone };
        const candidates = candidatesOf(resources, bookings, caller, -Infinity, Infinity);
        let found;
        try {
          found = findFreeForSeries(candidates, command, caller, now, { includePartial: true, policyRefusal: policyVerdictsOf(candidates), quotaLedger: emptyQuotaLedger, blackouts: [] });
        } catch (error) {
          // A request refused whatever the resource (a start in the past, a rule the zone cannot place): a create refuses it with the same 400.
          expect((error as DomainError).code).to.equal('invalid_request');
          const refusedAlike = resources.some((r) => {
            try {
              decideCreateSeries(command, { resource: r, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, caller.level === 5 ? { ...caller, level: 4 } : caller, now);
              return false;
            } catch (refusal) {
              return (refusal as DomainError).code === 'invalid_request';
            }
          });
          expect(refusedAlike, 'a create refuses the request with a 400 too').to.equal(true);
          return;
        }
        const guest = caller.level === 5;
        const stateOf = (r: Resource, i: number) => {
          const ofBooker = bookings[i]!.filter((b) => held(b) && b.bookerProfileId === caller.sub).length;
          return { resource: r, overlapping: bookings[i]!, activeBookingsOfBooker: guest ? 0 : Math.min(ofBooker, r.bookingPolicy.maxBookingsPerUser ?? Infinity), blackouts: [] };
        };
        const accepted = resources.filter((r, i) => {
          try {
            decideCreateSeries(command, stateOf(r, i), guest ? { ...caller, level: 4 } : caller, now);
            return true;
          } catch (error) {
            if (error instanceof DomainError) return false;
            throw error;
          }
        });
        expect(found.free.map((r) => r.resource.id).sort()).to.deep.equal(accepted.map((r) => r.id).sort());
        for (const partly of found.partlyFree) expect(accepted.map((r) => r.id)).to.not.include(partly.resource.id);
        if (guest) return;
        // The partial list against the dry run (contract §6: occurrences count towards maxBookingsPerUser
        // in order, after the caller's own active bookings): listed exactly when some but not all
        // occurrences fail, with those occurrences and the first check each fails.
        const partlyById = new Map(found.partlyFree.map((partly) => [partly.resource.id, partly]));
        resources.forEach((r, i) => {
          if (accepted.includes(r)) return;
          let preview: OccurrencePreview[];
          try {
            preview = previewSeriesOccurrences(command, stateOf(r, i), caller, now);
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
            expect(partlyById.has(r.id), 'a series refused as a whole is not listed').to.equal(false);
            return;
          }
          const failing = preview.filter((o) => o.conflicts.length > 0 || o.violations.length > 0);
          const listed = partlyById.get(r.id)?.unavailableOccurrences.map((o) => ({ startTime: utcText(o.startTime), reason: o.reason }));
          const expected = failing.length > 0 && failing.length < preview.length ? failing.map((o) => ({ startTime: o.startTime, reason: o.violations[0] ?? 'conflict' })) : undefined;
          expect(listed, `resource ${i + 1}: ${JSON.stringify(preview)}`).to.deep.equal(expected);
        });
      }),
      { numRuns: 300 },
    );
  });
});
