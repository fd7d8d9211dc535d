import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { anonymousBookingJson, bookingJson } from '../../src/api/booking/booking-json.js';
import type { Principal } from '../../src/domain/access/principal.js';
import { isAdmin } from '../../src/domain/access/principal.js';
import { canSeeBooking } from '../../src/domain/booking/booking-access.js';
import type { Booking, BookingStatus } from '../../src/domain/booking/booking.js';
import { utcTextOfEpochMs } from '../../src/domain/booking/booking-time.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { findScheduledBookings } from '../../src/projections/booking/booking-queries.js';
import { bookingToRow } from '../../src/projections/booking/booking-row.js';
import { findScheduleHead, renderScheduleBookings, renderTimesInSql, type ScheduleSelection } from '../../src/projections/booking/schedule-json.js';
import { projectors } from '../../src/projections/projectors.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const statuses: BookingStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'];
// DST both ways, half-hour DST (Lord Howe), 45-minute offsets (Kathmandu, Chatham), negative half hours, +14.
const zones = [undefined, 'UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham', 'Asia/Kolkata', 'Pacific/Kiritimati', 'America/Santiago'];
const hour = 3_600_000;
const rangeStart = Date.UTC(2026, 0, 1);
/** A new seed each run; PROPERTY_SEED=<n> replays one (a failure names its seed). */
const propertySeed = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Date.now() % 2_147_483_647;

const principal = (level: Principal['level'], sub: string, workspace: string | null): Principal => ({ sub, workspace, level, groups: [], email: null });

/** Text fields with what JSON must escape: quotes, backslashes, control characters, non-BMP characters. */
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\t', '\u0001', '\u001f', '\u007f', 'ä', '€', '\u2028', '😀', '/', '<'), maxLength: 12 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
/** Instants from 2026 to 2028 with or without a millisecond fraction. */
const instantMs = fc.oneof(
  fc.integer({ min: 0, max: 3 * 365 * 24 }).map((h) => rangeStart + h * hour),
  fc.integer({ min: 0, max: 3 * 365 * 24 * 3600 * 1000 }).map((ms) => rangeStart + ms),
);

describe('schedules rendered by PostgreSQL', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let resourceId: string;
  const workspace = randomUUID();
  const otherWorkspace = randomUUID();
  const views = [
    principal(1, 'root', null),
    principal(2, 'admin', workspace),
    principal(3, 'group-admin', workspace),
    principal(4, 'alice', workspace),
    principal(5, 'bob', workspace),
    principal(4, 'alice', otherWorkspace),
  ];

  before(async () => {
    database = await createTestDatabase();
    resourceId = randomUUID();
    const now = Temporal.Instant.from('2025-12-01T00:00:00Z');
    const event = decideRegister(
      { id: resourceId, workspace, resourceType: 'zone', resourceId: 'zone-json', resourceName: 'zone-json', bookingPolicy: { maxAdvanceDays: 3650 } },
      null,
      principal(1, 'system', null),
      now,
    );
    await createPostgresEventStore(database.db, { projections: projectors }).appendToStream(resourceStreamId(resourceId), [event], 'no_stream');
  });
  after(() => database.destroy());

  const transitionsOf = (zone: string) => {
    const found: number[] = [];
    let at = Temporal.Instant.fromEpochMilliseconds(rangeStart).toZonedDateTimeISO(zone).getTimeZoneTransition('next');
    while (at && at.epochMilliseconds < rangeStart + 3 * 365 * 24 * hour) {
      found.push(at.epochMilliseconds);
      at = at.getTimeZoneTransition('next');
    }
    return found;
  };

  const bookingArb = fc.record({
    slot: fc.nat(),
    lengthMs: fc.integer({ min: 1, max: 3 * hour }),
    status: fc.constantFrom(...statuses),
    booker: fc.constantFrom('alice', 'bob', 'carol'),
    ownWorkspace: fc.boolean(),
    email: maybe(text),
    title: text,
    rule: maybe(text),
    reason: maybe(text),
    by: maybe(text),
    optionalTimes: fc.array(maybe(instantMs), { minLength: 6, maxLength: 6 }),
    withParent: fc.boolean(),
    seriesParent: fc.boolean(),
  });

  /**
   * Bookings on 4-hour slots, some starting or ending on a transition. Two of them may share time;
   * then the later one is drawn cancelled if it would hold the slot too, as the exclusion constraint
   * admits no two overlapping pending or confirmed bookings of a resource.
   */
  function bookingsOf(specs: (typeof bookingArb extends fc.Arbitrary<infer T> ? T : never)[], edges: number[]): Booking[] {
    const held: { startMs: number; endMs: number }[] = [];
    return specs.map((spec, i) => {
      const edge = edges[i % Math.max(1, edges.length)];
      const startMs = i % 3 === 0 && edge !== undefined ? edge - (i % 2) : rangeStart + ((spec.slot % 6000) * 4 + 1) * hour + (i % 7) * 1001;
      const endMs = startMs + Math.min(spec.lengthMs, hour);
      const [bufferBeforeMinutes, bufferAfterMinutes] = [i % 3, i % 2];
      const occupied = { startMs: startMs - bufferBeforeMinutes * 60_000, endMs: endMs + bufferAfterMinutes * 60_000 };
      const holdsSlot = spec.status === 'pending' || spec.status === 'confirmed';
      const clashes = held.some((other) => other.startMs < occupied.endMs && occupied.startMs < other.endMs);
      const status = holdsSlot && clashes ? 'cancelled' : spec.status;
      if (holdsSlot && !clashes) held.push(occupied);
      const [confirmedAt = null, cancelledAt = null, checkedInAt = null, checkedOutAt = null, createdAt = null, updatedAt = null] = spec.optionalTimes;
      return {
        id: randomUUID(),
        bookableResourceId: resourceId,
        workspace: spec.ownWorkspace ? workspace : otherWorkspace,
        resourceType: 'zone',
        resourceId: 'zone-json',
        bookerProfileId: spec.booker,
        bookerEmail: spec.email,
        createdBy: i % 2 === 0 ? spec.booker : 'assistant',
        title: spec.title,
        startTime: utcTextOfEpochMs(startMs),
        endTime: utcTextOfEpochMs(endMs),
        bufferBeforeMinutes,
        bufferAfterMinutes,
        bundleId: null,
        calendarUid: null,
        units: 1,
        pooled: false,
        status,
        isSeriesParent: spec.seriesParent && status === 'cancelled',
        recurrenceRule: spec.rule,
        recurrenceTimeZone: null,
        recurrenceParentId: spec.withParent ? randomUUID() : null,
        exceptionOf: spec.withParent ? null : randomUUID(),
        confirmedBy: spec.by,
        confirmedAt: confirmedAt === null ? null : utcTextOfEpochMs(confirmedAt),
        cancelledBy: spec.by === null ? null : `${spec.by}!`,
        cancelledAt: cancelledAt === null ? null : utcTextOfEpochMs(cancelledAt),
        onBehalfOf: spec.by === null ? null : `approver-of-${spec.by}`,
        reason: spec.reason,
        checkedInAt: checkedInAt === null ? null : utcTextOfEpochMs(checkedInAt),
        checkedOutAt: checkedOutAt === null ? null : utcTextOfEpochMs(checkedOutAt),
        createdAt: utcTextOfEpochMs(createdAt ?? rangeStart),
        updatedAt: utcTextOfEpochMs(updatedAt ?? rangeStart + 1),
      };
    });
  }

  /** Today's rendering: rows read through the driver, records built and stringified in Node. */
  async function renderedInNode(actor: Principal, from: Temporal.Instant, to: Temporal.Instant, chosen: BookingStatus[], timeZone?: string) {
    const bookings = await findScheduledBookings(database.db, resourceId, from, to, chosen);
    return JSON.stringify(bookings.map((b) => ({ ...(canSeeBooking(actor, b) ? bookingJson(b, timeZone) : anonymousBookingJson(b, timeZone)), viaResourceId: null })));
  }

  const viewOf = (actor: Principal) => ({ allWorkspaces: actor.level === 1, workspace: actor.workspace, everyBooker: isAdmin(actor), sub: actor.sub });

  /** One record cache for every rendering of this file, as in the service: a stale record would show as a difference. */
  const records = new Map<string, Buffer>();
  const renderedInSql = async (query: ScheduleSelection) => Buffer.concat(await renderScheduleBookings(database.db, query, records)).toString();

  it('writes every schedule byte for byte as Node did, for any bookings, zone, view and status filter', async () => {
    const edges = zones.flatMap((zone) => (zone ? transitionsOf(zone) : []));
    await fc.assert(
      fc.asyncProperty(
        fc.array(bookingArb, { minLength: 0, maxLength: 40 }),
        fc.constantFrom(...zones),
        fc.constantFrom(...views),
        fc.subarray(statuses, { minLength: 1 }),
        fc.integer({ min: 0, max: 3 * 365 * 24 - 24 }),
        fc.integer({ min: 1, max: 366 * 24 }),
        async (specs, zone, actor, chosen, fromHour, hours) => {
          await database.db.deleteFrom('bookings').execute();
          const rows = bookingsOf(specs, edges);
          if (rows.length) await database.db.insertInto('bookings').values(rows.map(bookingToRow)).execute();
          const from = Temporal.Instant.fromEpochMilliseconds(rangeStart + fromHour * hour);
          const to = from.add({ hours });
          const fromSql = await renderedInSql({ bookableResourceId: resourceId, from, to, statuses: chosen, timeZone: zone, view: viewOf(actor) });
          expect(fromSql).to.equal(await renderedInNode(actor, from, to, chosen, zone));
        },
      ),
      { numRuns: 60, seed: propertySeed },
    ).catch((error: Error) => {
      throw new Error(`PROPERTY_SEED=${propertySeed} replays this run: ${error.message}`, { cause: error });
    });
  });

  it('renders a large schedule the same (3,000 bookings, every view, a DST zone and UTC)', async () => {
    await database.db.deleteFrom('bookings').execute();
    const specs = fc.sample(bookingArb, { numRuns: 3000, seed: 42 }).map((spec, i) => ({ ...spec, slot: i }));
    const rows = bookingsOf(specs, []);
    for (let i = 0; i < rows.length; i += 500) await database.db.insertInto('bookings').values(rows.slice(i, i + 500).map(bookingToRow)).execute();
    const from = Temporal.Instant.fromEpochMilliseconds(rangeStart);
    const to = from.add({ hours: 366 * 24 });
    for (const actor of views) {
      for (const zone of [undefined, 'Europe/Berlin']) {
        const fromSql = await renderedInSql({ bookableResourceId: resourceId, from, to, statuses, timeZone: zone, view: viewOf(actor) });
        expect(fromSql).to.equal(await renderedInNode(actor, from, to, statuses, zone));
        expect(JSON.parse(fromSql)).to.have.length.above(400);
      }
    }
  });

  it('renders again only the records a write changed, and answers as Node would after it', async () => {
    await database.db.deleteFrom('bookings').execute();
    const specs = fc.sample(bookingArb, { numRuns: 200, seed: 11 }).map((spec, i) => ({ ...spec, slot: i, seriesParent: false }));
    const rows = bookingsOf(specs, []);
    await database.db.insertInto('bookings').values(rows.map(bookingToRow)).execute();
    const from = Temporal.Instant.fromEpochMilliseconds(rangeStart);
    const query = { bookableResourceId: resourceId, from, to: from.add({ hours: 366 * 24 }), statuses, timeZone: 'Europe/Berlin', view: viewOf(views[1]!) };
    const before = await renderedInSql(query);
    const cached = records.size;
    expect(await renderedInSql({ ...query, from: from.add({ milliseconds: 1 }) })).to.equal(before);
    expect(records.size).to.equal(cached);
    await sql`update bookings set title = 'Changed "title"' where id = ${rows.find((b) => b.workspace === workspace)!.id}`.execute(database.db);
    const after = await renderedInSql(query);
    expect(records.size).to.equal(cached + 1);
    expect(after).to.not.equal(before);
    expect(after).to.equal(await renderedInNode(views[1]!, query.from, query.to, statuses, 'Europe/Berlin'));
  });

  it('drops sub-millisecond digits as the driver does (microseconds stored by other writers)', async () => {
    await database.db.deleteFrom('bookings').execute();
    const [booking] = bookingsOf(fc.sample(bookingArb, { numRuns: 1, seed: 7 }).map((spec) => ({ ...spec, slot: 0, seriesParent: false })), []);
    await database.db.insertInto('bookings').values(bookingToRow(booking!)).execute();
    await sql`update bookings set created_at = '2026-05-01T10:00:00.123999Z', updated_at = '2026-05-01T10:00:00.000999Z', confirmed_at = '2026-05-01T10:00:00.1Z'`.execute(database.db);
    const from = Temporal.Instant.fromEpochMilliseconds(rangeStart);
    const to = from.add({ hours: 366 * 24 });
    for (const zone of [undefined, 'Asia/Kathmandu']) {
      const fromSql = await renderedInSql({ bookableResourceId: resourceId, from, to, statuses, timeZone: zone, view: viewOf(views[1]!) });
      expect(fromSql).to.equal(await renderedInNode(views[1]!, from, to, statuses, zone));
      expect(fromSql).to.include('"createdAt":"2026-05-01T');
    }
  });

  it('writes single instants with the zone offset, fraction trimmed', async () => {
    const ms = [Date.UTC(2026, 2, 29, 0, 59, 59, 999), Date.UTC(2026, 2, 29, 1, 0, 0, 0), Date.UTC(2026, 6, 1, 12, 0, 0, 120)];
    expect(await renderTimesInSql(database.db, ms, 'Europe/Berlin')).to.deep.equal(['2026-03-29T01:59:59.999+01:00', '2026-03-29T03:00:00+02:00', '2026-07-01T14:00:00.12+02:00']);
    expect(await renderTimesInSql(database.db, ms, 'Asia/Kathmandu')).to.deep.equal(['2026-03-29T06:44:59.999+05:45', '2026-03-29T06:45:00+05:45', '2026-07-01T17:45:00.12+05:45']);
    expect(await renderTimesInSql(database.db, ms)).to.deep.equal(['2026-03-29T00:59:59.999Z', '2026-03-29T01:00:00Z', '2026-07-01T12:00:00.12Z']);
  });

  it('finds the head of a live resource by any spelling of its id, and none for an unknown one', async () => {
    const head = await findScheduleHead(database.db, resourceId.toUpperCase());
    expect(head).to.deep.equal({ id: resourceId, workspace, units: 1, revision: '0' });
    expect(await findScheduleHead(database.db, randomUUID())).to.equal(null);
  });
});
