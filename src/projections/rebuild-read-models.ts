import { sql, type Transaction } from 'kysely';
import type { Config } from '../infra/config.js';
import type { Database, Executor } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import { storedBookingEventTypes } from '../domain/booking/booking-archived.js';
import { bookingIdOfEvent } from '../domain/booking/booking-events.js';
import { logStart, positionOf, type LogPosition, type RecordedEvent } from '../infra/event-store/event-store.js';
import type { AllPage, ReadAllPage } from '../infra/event-store/eventstoredb-all-pages.js';
import { readLog } from '../infra/event-store/postgres-event-store.js';
import { projectEvents } from '../infra/event-store/project-events.js';
import { projectionsCheckpoint } from '../infra/event-store/projection-progress.js';
import { lockCheckpoint, moveCheckpoint, readCheckpoint } from '../infra/event-store/processor-checkpoint.js';
import type { KeptColumns, Projector } from './projector.js';
import { eventStoreDbFollowingProjectors, followingProjectors, projectors } from './projectors.js';

/** Events read and projected at a time: each projector writes a page's events in a few statements (project-events.ts). */
const defaultPageSize = 2_000;

/** How many events of bookings still open the rebuild holds back at most (HeldBookings), a few KB each. */
const defaultHoldLimit = 10_000;

export type RebuildOptions = {
  eventStoreDb?: ReadAllPage;
  onProgress?: (events: number) => void;
  pageSize?: number;
  holdLimit?: number;
  /**
   * The pool of a PostgreSQL server (not PGlite's one connection, which the rebuild's transaction
   * holds): the log read without the horizon is then read there, the next page while this one is
   * projected. Under READ COMMITTED another connection sees the same committed events as the
   * rebuild's own statements do.
   */
  readAheadOn?: Database;
};

/**
 * Drops every read model and fills it again from the whole log through the projectors, in one
 * transaction. The tables are locked against writers first (readers keep reading the old rows
 * until commit), so no append's projection can interleave: an append still running when the lock
 * is taken waits, and projects its own events onto the rebuilt tables once the rebuild commits.
 * Columns kept out of the events (device key hashes, packages, sign-in identities) are carried over.
 *
 * The projectors written in the append read the log without the late-commit horizon: with their
 * writers locked out, every event of theirs has committed. With PROJECTIONS=async, the others are
 * the runner's: the rebuild first takes the runner's checkpoint row (waiting for a batch in flight;
 * the runner's next batch then waits for the rebuild, finds the checkpoint moved and starts over
 * from it), fills their tables from the log below the horizon, as the runner reads it, and leaves
 * the checkpoint where it stopped. Commands keep appending meanwhile; what lies beyond is the runner's.
 *
 * `eventStoreDb`: the pages of `$all` when EventStoreDB keeps the log (eventstoredb-all-pages.ts).
 * Every projector is then the runner's, and the tables are filled from `$all` in the same way.
 * `onProgress` hears the events projected after each page of `pageSize` events.
 */
export async function rebuildReadModels(
  db: Database,
  config: Pick<Config, 'projections'>,
  { eventStoreDb, onProgress = () => undefined, pageSize = defaultPageSize, holdLimit = defaultHoldLimit, readAheadOn }: RebuildOptions = {},
): Promise<{ events: number }> {
  const following = eventStoreDb ? eventStoreDbFollowingProjectors : config.projections === 'async' ? followingProjectors : [];
  const inAppend = eventStoreDb ? [] : projectors.filter((p) => !following.includes(p));
  const tables = projectors.flatMap((p) => p.tables);
  const kept = projectors.flatMap((p) => p.kept ?? []);
  return db.transaction().execute(async (trx) => {
    const runnerAt = following.length > 0 ? await holdRunnerCheckpoint(trx) : undefined;
    await sql`lock table ${sql.join(tables.map((t) => sql.table(t)))} in exclusive mode`.execute(trx);
    for (const columns of kept) await setAside(trx, columns);
    // Children first: bookings refer to resources, applications to projects.
    for (const table of [...tables].reverse()) await trx.deleteFrom(table).execute();
    const appended = inAppend.length > 0 ? await replayLog(trx, inAppend, pagesOfLog(readAheadOn ?? trx, false, pageSize), onProgress, holdLimit, readAheadOn !== undefined) : { events: 0 };
    let followed = 0;
    if (runnerAt) {
      const read: ReadPage = eventStoreDb ? (after) => eventStoreDb({ after, maxCount: pageSize }) : pagesOfLog(trx, true, pageSize);
      const { events, reached } = await replayLog(trx, following, read, (events) => onProgress(appended.events + events), holdLimit, eventStoreDb !== undefined);
      await moveCheckpoint(trx, projectionsCheckpoint, runnerAt, reached);
      followed = events;
    }
    for (const columns of kept) await restore(trx, columns);
    return { events: eventStoreDb ? followed : appended.events };
  });
}

/** The runner's checkpoint, created where missing, held until the rebuild commits. */
async function holdRunnerCheckpoint(trx: Transaction<DB>): Promise<LogPosition> {
  await readCheckpoint(trx, projectionsCheckpoint);
  return lockCheckpoint(trx, projectionsCheckpoint);
}

type ReadPage = (after: LogPosition) => Promise<AllPage>;

/** Pages of the PostgreSQL log, below the late-commit horizon or not: a short page is its end. */
const pagesOfLog =
  (trx: Executor, horizon: boolean, pageSize: number): ReadPage =>
  async (after) => {
    const page = await readLog(trx, { after, maxCount: pageSize, horizon });
    return { ...page, end: page.events.length < pageSize };
  };

/** A booking's status once its life is over: few events, if any, follow (an archive, a late check-out). */
const closedStatuses: ReadonlySet<string> = new Set(['completed', 'cancelled', 'no_show']);

/**
 * The bookings whose events the rebuild holds back, from their creation on, until the booking is
 * closed: each is then projected once with all its events instead of once per page it has events in
 * (a booking's moves lie days of log apart, many pages). What the set-based projectors write for a
 * booking follows from its own events alone, in order (project-events.ts), so holding a booking back
 * changes when its rows are written, not what they are. A held booking has no rows yet (it is held
 * from its creation), so the tables always hold a subset of the rows of a moment of the log: no
 * constraint between bookings (the exclusion constraint) can meet a row that moment did not have.
 * Every held booking is let go before an event that other projectors handle, so that they find the
 * tables as the log stood before it.
 *
 * Memory stays bounded: a booking is held only while fewer than `limit` events are (the first
 * created close first, so the newest go ahead when the hold is full), the oldest are let go when
 * their further events take it past `limit`, and so are those held across more than `maxAge`
 * events of the log (a booking that stays open a long time must not keep its place).
 */
class HeldBookings {
  /** Each held booking's events, and the count of the log's events read before it was held; in the order they were held. */
  private readonly held = new Map<string, { since: number; events: RecordedEvent[] }>();
  private events = 0;
  private read = 0;

  constructor(
    private readonly through: readonly Projector[],
    private readonly limit: number,
    private readonly maxAge = 5 * limit,
  ) {}

  /** The events of `page` to project now, in an order that keeps each booking's events in log order: the others, and those of the bookings let go. */
  release(page: readonly RecordedEvent[]): RecordedEvent[] {
    const now: RecordedEvent[] = [];
    for (const event of page) {
      this.read++;
      const kind = this.kindOf(event.type);
      const bookingId = kind === 'booking' ? bookingIdOfEvent(event) : undefined;
      const held = bookingId === undefined ? undefined : this.held.get(bookingId);
      if (held) {
        held.events.push(event);
        this.events++;
      } else if (bookingId !== undefined && event.type === 'BookingCreated' && this.events < this.limit) {
        this.held.set(bookingId, { since: this.read, events: [event] });
        this.events++;
      } else {
        if (bookingId === undefined && kind !== 'unhandled') this.releaseAll(now);
        now.push(event);
      }
    }
    for (const [bookingId, { events }] of this.held) {
      if (closedStatuses.has((events.at(-1)!.data as { booking: { status: string } }).booking.status)) this.releaseOne(bookingId, now);
    }
    // The oldest first: the map keeps the order they were held in.
    for (const [bookingId, { since }] of this.held) {
      if (this.events <= this.limit && this.read - since <= this.maxAge) break;
      this.releaseOne(bookingId, now);
    }
    return now;
  }

  private readonly kinds = new Map<string, 'booking' | 'other' | 'unhandled'>();

  /** 'booking': a booking event only set-based projectors handle; 'unhandled': one no projector handles. */
  private kindOf(type: string): 'booking' | 'other' | 'unhandled' {
    let kind = this.kinds.get(type);
    if (kind === undefined) {
      const handlers = this.through.filter((projector) => projector.handles.has(type));
      kind = handlers.length === 0 ? 'unhandled' : storedBookingEventTypes.has(type) && handlers.every((projector) => projector.setBased) ? 'booking' : 'other';
      this.kinds.set(type, kind);
    }
    return kind;
  }

  /** Every held booking's events, to project now. */
  releaseAll(into: RecordedEvent[] = []): RecordedEvent[] {
    for (const bookingId of this.held.keys()) this.releaseOne(bookingId, into);
    return into;
  }

  private releaseOne(bookingId: string, into: RecordedEvent[]): void {
    const { events } = this.held.get(bookingId)!;
    for (const event of events) into.push(event);
    this.events -= events.length;
    this.held.delete(bookingId);
  }
}

/** Applies the log from its start through `through`, telling `onProgress` after each page; answers how many events it applied and the last one's position. */
async function replayLog(
  trx: Transaction<DB>,
  through: readonly Projector[],
  read: ReadPage,
  onProgress: (events: number) => void,
  holdLimit: number,
  readAhead: boolean,
): Promise<{ events: number; reached: LogPosition }> {
  const held = new HeldBookings(through, holdLimit);
  let events = 0;
  let after = logStart;
  let reached = logStart;
  let next: Promise<AllPage> | undefined;
  for (;;) {
    const page = await (next ?? read(after));
    next = undefined;
    if (readAhead && !page.end) {
      next = read(page.next);
      // Awaited in the next turn; a failure while this page is projected must not count as unhandled meanwhile.
      next.catch(() => undefined);
    }
    await projectEvents(through, trx, held.release(page.events));
    events += page.events.length;
    onProgress(events);
    after = page.next;
    const last = page.events.at(-1);
    if (last) reached = positionOf(last);
    if (page.end) {
      await projectEvents(through, trx, held.releaseAll());
      return { events, reached };
    }
  }
}

const keptTable = ({ table }: KeptColumns) => sql.table(`kept_${table}`);

async function setAside(trx: Transaction<DB>, kept: KeptColumns): Promise<void> {
  const anySet = sql.join(kept.columns.map((c) => sql`${sql.ref(c)} is not null`), sql` or `);
  await sql`create temporary table ${keptTable(kept)} on commit drop as
    select ${sql.join([...kept.key, ...kept.columns].map((c) => sql.ref(c)))} from ${sql.table(kept.table)} where ${anySet}`.execute(trx);
}

async function restore(trx: Transaction<DB>, kept: KeptColumns): Promise<void> {
  const set = sql.join(kept.columns.map((c) => sql`${sql.ref(c)} = k.${sql.ref(c)}`));
  const match = sql.join(kept.key.map((c) => sql`t.${sql.ref(c)} = k.${sql.ref(c)}`), sql` and `);
  await sql`update ${sql.table(kept.table)} as t set ${set} from ${keptTable(kept)} as k where ${match}`.execute(trx);
}
