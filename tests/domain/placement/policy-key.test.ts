import { expect } from 'chai';
import fc from 'fast-check';
import type { Level } from '../../../src/domain/access/principal.js';
import { placementRefusal } from '../../../src/domain/placement/placement-refusal.js';
import { perResourceFields, policyKeyFields } from '../../../src/domain/resource/policy-key.js';
import { defaultBookingPolicy, type Availability, type BookingPolicy, type Resource } from '../../../src/domain/resource/resource.js';
import { actor, now, resource } from '../booking/booking-fixtures.js';

/** A resource that records the name of every field read from it. */
function recording(target: Resource, read: Set<string>): Resource {
  return new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(object, key, receiver);
    },
  });
}

const availabilityArb: fc.Arbitrary<Availability | null> = fc.option(
  fc.record({ timeZone: fc.constantFrom('UTC', 'Europe/Berlin'), hours: fc.record({ tuesday: fc.constantFrom([{ start: '08:00', end: '18:00' }], []) }, { requiredKeys: [] }) }),
  { nil: null },
);

/**
 * Every field of the booking policy drawn at random from its kind, so that a rule a field switches
 * on (a boolean added tomorrow) is exercised without this test naming it.
 */
const policyArb: fc.Arbitrary<BookingPolicy> = fc.record(
  Object.fromEntries(
    Object.entries(defaultBookingPolicy).map(([field, value]): [string, fc.Arbitrary<unknown>] => {
      if (typeof value === 'boolean') return [field, fc.boolean()];
      if (typeof value === 'number') return [field, fc.constantFrom(value, 0, 1, 30, 600)];
      if (value === null) return [field, fc.constantFrom(null, 1, 3)];
      return [field, fc.constant(value)];
    }),
  ),
) as fc.Arbitrary<BookingPolicy>;

const resourceArb = fc
  .record({
    isActive: fc.boolean(),
    removed: fc.boolean(),
    units: fc.integer({ min: 1, max: 4 }),
    groupId: fc.option(fc.constantFrom('g-1', 'g-2'), { nil: null }),
    capacity: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
    availability: availabilityArb,
    bookingPolicy: policyArb,
  })
  .map((fields) => resource({}, fields));

/**
 * The free search decides once per policy key (migration 0034): the verdict a resource gets with
 * nothing of its own in the way may read only the key's fields and those the search states per
 * resource. A rule reading any other field (a group, a name, a capacity) fails here before it
 * makes the search answer wrongly.
 */
describe('the verdict reads of a resource only its policy key and what the search states per resource (policy-key.ts)', () => {
  const allowed = new Set<string>([...policyKeyFields, ...perResourceFields]);

  it('on random resources, times, units and callers', () => {
    fc.assert(
      fc.property(
        resourceArb,
        fc.integer({ min: 0, max: 60 * 48 }),
        fc.constantFrom(15, 60, 600),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom<Level>(1, 2, 3, 4, 5),
        fc.boolean(),
        (target, startMinutes, minutes, units, level, callerChecks) => {
          const read = new Set<string>();
          const startTime = now.add({ minutes: startMinutes });
          const neutral = { resource: recording(target, read), overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
          placementRefusal({ startTime, endTime: startTime.add({ minutes }), units }, neutral, actor(level, 'caller', { groups: ['g-1'] }), now, { callerChecks });
          const outside = [...read].filter((field) => !allowed.has(field));
          expect(outside, `fields read outside the policy key: ${outside.join(', ')}`).to.deep.equal([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the recording sees a field read: the test can fail', () => {
    const read = new Set<string>();
    void recording(resource(), read).groupId;
    expect([...read]).to.deep.equal(['groupId']);
  });
});
