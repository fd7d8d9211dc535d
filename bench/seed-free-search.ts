import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Transaction } from 'kysely';
import type { Principal } from '../src/domain/access/principal.js';
import type { Booking } from '../src/domain/booking/booking.js';
import { cancelled } from '../src/domain/booking/booking-cancelled.js';
import { decideCreateBooking } from '../src/domain/booking/decide-create-booking.js';
import { decideCompletion, decideNoShow } from '../src/domain/booking/decide-system-moves.js';
import { zoneCreated } from '../src/domain/record/device-record-events.js';
import { decideRegister, type RegisterResource } from '../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../src/domain/resource/resource.js';
import type { Database } from '../src/infra/db/database.js';
import type { DB } from '../src/infra/db/schema.js';
import type { EventStore, NewEvent } from '../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../src/projections/projectors.js';
import { findResource } from '../src/projections/resource/resource-queries.js';
import { bulkBookingsProjection } from './seed-bench-data.js';

/**
 * The free search's database (issue 20, contract §16): a workspace of its own whose zone tree is
 * `buildings` × `floors` × `rooms` (zone records through the log, as the device service would hold
 * them), every room registered as a zone resource, and `bookings` bookings on them, all through the
 * event store's append path:
 *
 * - the coming `futureDays` days: created through the store with every projection, one append per
 *   resource; the first ten working days dense (2.4 bookings a room a day, ≈ half the rooms busy in
 *   a working hour), the rest sparse (0.6); 5 % of them cancelled;
 * - the past year: each booking created and then completed (87 %), marked no-show (5 %) or cancelled
 *   (8 %), two events, as the timer worker and the bookers leave them; appended with the bulk
 *   projection of seed-bench-data.ts (the bookings read model only), one append per resource.
 *
 * Past bookings come in two steps: a tenth with the rest of the seed (`seedFreeSearch`), the other
 * nine tenths later (`addPastBookings`), so that the same search can be measured with one and with
 * ten times the past bookings on one database.
 *
 * Every booking lies in 08:00–18:00 Europe/Berlin on a working day, lasts 30 min to 2 h and is
 * decided by decideCreateBooking against its resource, so the operating hours and maxDurationMinutes
 * of the policies mixed in hold; the bookings of a room never overlap.
 */
export type FreeSearchSizes = { buildings: number; floors: number; rooms: number; bookings: number; futureDays: number };

export const freeSearchSizes: FreeSearchSizes = { buildings: 4, floors: 10, rooms: 50, bookings: 300_000, futureDays: 30 };

export type FreeSearchData = {
  workspace: string;
  buildings: string[];
  floors: string[];
  resources: number;
  /** Working days (Europe/Berlin) of the dense coming days, the first one first. */
  denseDays: Temporal.PlainDate[];
  futureBookings: number;
  pastBookings: { seeded: number; held: number };
  /** Seconds: zones and registrations, future bookings and the first tenth of the past, the rest of the past. */
  seconds: { registrations: number; first: number; rest: number };
  policies: Record<string, number>;
};

type Store = EventStore<Transaction<DB>>;
type Room = { resource: Resource; revision: number; pastLater: NewEvent[] };

const zone = 'Europe/Berlin';
const minute = 60_000;
const workingHours = { hours: { monday: [{ start: '08:00', end: '18:00' }], tuesday: [{ start: '08:00', end: '18:00' }], wednesday: [{ start: '08:00', end: '18:00' }], thursday: [{ start: '08:00', end: '18:00' }], friday: [{ start: '08:00', end: '18:00' }] } };
const system: Principal = { sub: 'bench-seed', workspace: null, level: 1, groups: [], email: null };
const durations = [30, 60, 60, 90, 120];

/** A small deterministic PRNG (mulberry32), so that every run seeds the same shape. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The registration of room `i`: a realistic mix of capacities (1–20, a tenth none), groups and policies. */
function registration(i: number, workspace: string, zoneId: string, rnd: () => number): { command: RegisterResource; policy: string } {
  const capacity = rnd() < 0.1 ? null : rnd() < 0.4 ? 1 : 2 + Math.floor(rnd() * 19);
  const groupId = i % 20 === 0 ? 'facilities' : i % 33 === 0 ? 'executive' : null;
  const draw = rnd();
  const policy = draw < 0.65 ? 'default' : draw < 0.85 ? 'operating hours Mon–Fri 08–18 Berlin' : draw < 0.97 ? 'maxDurationMinutes 120' : 'maxBookingsPerUser 3';
  const command: RegisterResource = {
    id: randomUUID(),
    workspace,
    resourceType: 'zone',
    resourceId: zoneId,
    resourceName: `Room ${zoneId}`,
    capacity,
    groupId,
    availability: policy.startsWith('operating') ? { timeZone: zone, ...workingHours } : null,
    bookingPolicy: policy.startsWith('maxDuration') ? { maxDurationMinutes: 120 } : policy.startsWith('maxBookings') ? { maxBookingsPerUser: 3 } : {},
  };
  return { command, policy };
}

/** The working days from `from` on (or back from it), in Europe/Berlin, with their 08:00 as epoch ms. */
function workingDays(from: Temporal.PlainDate, count: number, step: 1 | -1): { date: Temporal.PlainDate; eightMs: number }[] {
  const days: { date: Temporal.PlainDate; eightMs: number }[] = [];
  for (let d = from; days.length < count; d = d.add({ days: step })) {
    if (d.dayOfWeek <= 5) days.push({ date: d, eightMs: d.toZonedDateTime({ timeZone: zone, plainTime: '08:00' }).epochMilliseconds });
  }
  return days;
}

/** `n` bookings of one room on one day (08:00–18:00): each in its own n-th of the day, so none overlap. */
function dayBookings(resource: Resource, eightMs: number, n: number, rnd: () => number, createdAt: (startMs: number) => Temporal.Instant): Booking[] {
  const segment = 600 / n;
  const bookings: Booking[] = [];
  for (let k = 0; k < n; k++) {
    const length = Math.min(durations[Math.floor(rnd() * durations.length)]!, Math.floor(segment / 15) * 15);
    const slack = Math.floor((segment - length) / 15);
    const startMs = eightMs + (Math.ceil((k * segment) / 15) + Math.floor(rnd() * (slack + 1))) * 15 * minute;
    const booker = `user-${Math.floor(rnd() * 400)}`;
    const actor: Principal = { sub: booker, workspace: resource.workspace, level: 4, groups: [], email: `${booker}@example.com` };
    const start = Temporal.Instant.fromEpochMilliseconds(startMs);
    const event = decideCreateBooking({ id: randomUUID(), title: 'Meeting', startTime: start, endTime: start.add({ minutes: length }) }, { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] }, actor, createdAt(startMs));
    bookings.push(event.data.booking);
  }
  return bookings;
}

const createdEvent = (booking: Booking): NewEvent => ({ type: 'BookingCreated', data: { booking, by: booking.bookerProfileId, at: booking.createdAt } });

/** A past booking's life: created, then completed, marked no-show or cancelled. */
function pastLife(booking: Booking, resource: Resource, rnd: () => number): NewEvent[] {
  const startMs = Date.parse(booking.startTime);
  const draw = rnd();
  if (draw < 0.08) return [createdEvent(booking), cancelled(booking, booking.bookerProfileId, Temporal.Instant.fromEpochMilliseconds(startMs - 3 * 3_600_000), null)];
  if (draw < 0.13) return [createdEvent(booking), ...decideNoShow(booking, resource, Temporal.Instant.fromEpochMilliseconds(startMs + 20 * minute))];
  return [createdEvent(booking), ...decideCompletion(booking, Temporal.Instant.fromEpochMilliseconds(Date.parse(booking.endTime)))];
}

/** Runs `work` on every item, `parallel` at a time. */
async function inParallel<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const rooms = new WeakMap<FreeSearchData, Room[]>();

/** The workspace, its zones and resources, the future bookings and a tenth of the past ones (see above). */
export async function seedFreeSearch(db: Database, sizes: FreeSearchSizes = freeSearchSizes, parallel = 4): Promise<FreeSearchData> {
  const started = Date.now();
  const store: Store = createPostgresEventStore(db, { projections: projectors });
  const bulkStore: Store = createPostgresEventStore(db, { projections: [] });
  const workspace = randomUUID();
  const now = Temporal.Now.instant();
  const rnd = random(20);
  const at = now.toString();

  const buildings = Array.from({ length: sizes.buildings }, (_, b) => `b${b + 1}`);
  const floors = buildings.flatMap((b) => Array.from({ length: sizes.floors }, (_, f) => `${b}-f${f + 1}`));
  const roomZones = floors.flatMap((f) => Array.from({ length: sizes.rooms }, (_, r) => ({ id: `${f}-r${r + 1}`, parentZoneId: f })));
  // Level by level: a zone's parent must be there before it.
  const levels = [buildings.map((id) => ({ id, parentZoneId: null as string | null })), floors.map((id) => ({ id, parentZoneId: id.replace(/-f\d+$/, '') })), roomZones];
  for (const level of levels) {
    await inParallel(level, parallel, async ({ id, parentZoneId }) => {
      const event = { type: zoneCreated, data: { workspace, id, record: { id, name: `Zone ${id}`, parentZoneId, workspace }, by: 'bench-seed', at } };
      await store.appendToStream(`zone-${workspace}-${id}`, [event], 'no_stream');
    });
  }

  const policies: Record<string, number> = {};
  const registrations = roomZones.map(({ id }, i) => {
    const { command, policy } = registration(i, workspace, id, rnd);
    policies[policy] = (policies[policy] ?? 0) + 1;
    return command;
  });
  const seeded: Room[] = [];
  await inParallel(registrations, parallel, async (command) => {
    await store.appendToStream(resourceStreamId(command.id), [decideRegister(command, null, system, now)], 'no_stream');
    seeded.push({ resource: (await findResource(db, command.id))!, revision: 0, pastLater: [] });
  });
  const registered = Date.now();

  // Future: the ten dense working days from tomorrow on, then sparse ones up to futureDays.
  const tomorrow = now.toZonedDateTimeISO(zone).toPlainDate().add({ days: 1 });
  const future = workingDays(tomorrow, 40, 1).filter((d) => Temporal.PlainDate.compare(d.date, tomorrow.add({ days: sizes.futureDays })) < 0);
  const futureByRoom = seeded.map(({ resource }) =>
    future.flatMap(({ eightMs }, d) => {
      const n = Math.floor((d < 10 ? 2.4 : 0.6) + rnd());
      return n === 0 ? [] : dayBookings(resource, eightMs, n, rnd, () => now);
    }),
  );
  const futureBookings = futureByRoom.reduce((sum, b) => sum + b.length, 0);

  // Past: the rest of `bookings`, spread evenly over the rooms, one a day on distinct working days of the past year.
  const pastDays = workingDays(tomorrow.subtract({ days: 2 }), 261, -1);
  const pastTotal = Math.max(0, sizes.bookings - futureBookings);
  const perRoom = Math.floor(pastTotal / seeded.length);
  let pastFirst = 0;
  const firstPast = seeded.map((room, i) => {
    const quota = Math.min(pastDays.length, perRoom + (i < pastTotal - perRoom * seeded.length ? 1 : 0));
    const days = pastDays.map((d) => ({ d, key: rnd() })).sort((a, b) => a.key - b.key).slice(0, quota).map(({ d }) => d);
    const first: NewEvent[] = [];
    days.forEach(({ eightMs }, k) => {
      const [booking] = dayBookings(room.resource, eightMs, 1, rnd, (startMs) => Temporal.Instant.fromEpochMilliseconds(startMs - 24 * 3_600_000));
      const life = pastLife(booking!, room.resource, rnd);
      if (k % 10 === 0) {
        first.push(...life);
        pastFirst++;
      } else room.pastLater.push(...life);
    });
    return first;
  });

  await inParallel(seeded.map((room, i) => ({ room, i })), parallel, async ({ room, i }) => {
    const futureEvents = futureByRoom[i]!.flatMap((booking) => (rnd() < 0.05 ? [createdEvent(booking), cancelled(booking, booking.bookerProfileId, now, null)] : [createdEvent(booking)]));
    if (futureEvents.length) room.revision = (await store.appendToStream(resourceStreamId(room.resource.id), futureEvents, room.revision)).nextExpectedRevision;
    const past = firstPast[i]!;
    if (past.length) room.revision = (await bulkStore.appendToStream(resourceStreamId(room.resource.id), past, room.revision, { inTransaction: bulkBookingsProjection })).nextExpectedRevision;
  });
  const done = Date.now();
  const data: FreeSearchData = {
    workspace,
    buildings,
    floors,
    resources: seeded.length,
    denseDays: future.slice(0, 10).map((d) => d.date),
    futureBookings,
    pastBookings: { seeded: pastTotal, held: pastFirst },
    seconds: { registrations: (registered - started) / 1000, first: (done - registered) / 1000, rest: 0 },
    policies,
  };
  rooms.set(data, seeded);
  return data;
}

/** The other nine tenths of the past bookings, one append per resource: the database then holds all of `bookings`. */
export async function addPastBookings(db: Database, data: FreeSearchData, parallel = 4): Promise<void> {
  const started = Date.now();
  const bulkStore: Store = createPostgresEventStore(db, { projections: [] });
  const seeded = rooms.get(data)!;
  await inParallel(seeded, parallel, async (room) => {
    if (room.pastLater.length === 0) return;
    room.revision = (await bulkStore.appendToStream(resourceStreamId(room.resource.id), room.pastLater, room.revision, { inTransaction: bulkBookingsProjection })).nextExpectedRevision;
    data.pastBookings.held += room.pastLater.length / 2;
    room.pastLater = [];
  });
  data.seconds.rest = (Date.now() - started) / 1000;
}
