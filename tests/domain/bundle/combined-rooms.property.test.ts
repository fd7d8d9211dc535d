import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { Booking } from '../../../src/domain/booking/booking.js';
import type { BookingCreated } from '../../../src/domain/booking/booking-events.js';
import { decideCreateBooking } from '../../../src/domain/booking/decide-create-booking.js';
import { decideCreateBundle } from '../../../src/domain/bundle/decide-create-bundle.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { sharingOf } from '../../../src/domain/resource/resource-parts.js';
import type { Resource } from '../../../src/domain/resource/resource.js';
import { alice, now, resource } from '../booking/booking-fixtures.js';

/**
 * Contract §22 against a brute force: random wholes with parts, and random single creates and
 * bundles over random windows, each decided on the state its loader reads (the bookings of the
 * resource and of every resource sharing one with it, as sharing_resources gives them). Whatever
 * is accepted, expanded onto the resources it occupies (a whole's parts too), overlaps nowhere.
 */
const day = Temporal.Instant.from('2027-01-05T00:00:00Z');
const at = (minute: number) => day.add({ minutes: minute });
const ids = Array.from({ length: 7 }, (_, i) => `00000000-0000-4000-8000-00000000010${i}`);

const layoutArb = fc
  .array(fc.record({ whole: fc.integer({ min: 0, max: 6 }), parts: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }) }), { maxLength: 3 })
  .map((wholes) => {
    // A whole has no parts of... its own parts, and a part has none: keep the first consistent ones.
    const partOf = new Set<number>();
    const kept: { whole: number; parts: number[] }[] = [];
    for (const w of wholes) {
      const parts = w.parts.filter((p) => p !== w.whole && !kept.some((k) => k.whole === p));
      if (parts.length === 0 || partOf.has(w.whole) || kept.some((k) => k.whole === w.whole)) continue;
      kept.push({ whole: w.whole, parts });
      parts.forEach((p) => partOf.add(p));
    }
    return kept;
  });

const requestArb = fc.record({
  items: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 3 }),
  start: fc.integer({ min: 0, max: 40 }).map((q) => 480 + q * 15),
  length: fc.integer({ min: 1, max: 8 }).map((q) => q * 15),
});

describe('combined rooms and bundles against a brute-force occupation (contract §22)', () => {
  it('never lets two accepted bookings occupy one resource at one instant', () => {
    fc.assert(
      fc.property(layoutArb, fc.array(requestArb, { minLength: 1, maxLength: 25 }), (layout, requests) => {
        const resources: Resource[] = ids.map((id, i) => {
          const whole = layout.find((w) => w.whole === i);
          return resource({ maxAdvanceDays: 365, minNoticeMinutes: 0 }, { id, resourceId: `zone-${i}`, parts: whole ? whole.parts.map((p) => ids[p]!) : null });
        });
        const sharing = sharingOf(resources.flatMap((r) => (r.parts ? [{ id: r.id, parts: r.parts }] : [])));
        const accepted: Booking[] = [];
        const stateOf = (r: Resource) => {
          const occupying = new Set([r.id, ...(sharing.get(r.id) ?? [])]);
          return { resource: r, overlapping: accepted.filter((b) => occupying.has(b.bookableResourceId)), activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
        };
        let next = 0;
        const newId = () => `b0000000-0000-4000-8000-${String(++next).padStart(12, '0')}`;
        for (const request of requests) {
          const times = { title: 'Meeting', startTime: at(request.start), endTime: at(request.start + request.length) };
          let created: BookingCreated[] = [];
          try {
            if (request.items.length === 1) {
              created = [decideCreateBooking({ ...times, id: newId() }, stateOf(resources[request.items[0]!]!), alice, now)];
            } else {
              const items = request.items.map((i) => ({ resourceType: 'zone', resourceId: `zone-${i}` }));
              created = decideCreateBundle({ ...times, id: newId(), items, bookingIds: items.map(newId) }, request.items.map((i) => stateOf(resources[i]!)), alice, now);
            }
          } catch (error) {
            if (!(error instanceof DomainError)) throw error;
          }
          accepted.push(...created.map((e) => e.data.booking));
        }
        // Brute force: each accepted booking occupies its resource and, on a whole, its parts.
        const occupied = new Map<string, { from: number; to: number; id: string }[]>();
        for (const b of accepted) {
          const r = resources.find((x) => x.id === b.bookableResourceId)!;
          for (const id of [r.id, ...(r.parts ?? [])]) {
            const spans = occupied.get(id) ?? [];
            const span = { from: Date.parse(b.startTime), to: Date.parse(b.endTime), id: b.id };
            const clash = spans.find((s) => s.from < span.to && span.from < s.to);
            expect(clash, `${b.id} and ${clash?.id} both occupy ${id}`).to.equal(undefined);
            occupied.set(id, [...spans, span]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
