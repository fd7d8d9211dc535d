import { sql, type Transaction } from 'kysely';
import type { Config } from '../infra/config.js';
import type { Database } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import { logStart, positionOf, type LogPosition } from '../infra/event-store/event-store.js';
import type { AllPage, ReadAllPage } from '../infra/event-store/eventstoredb-all-pages.js';
import { readLog } from '../infra/event-store/postgres-event-store.js';
import { projectEvents } from '../infra/event-store/project-events.js';
import { projectionsCheckpoint } from '../infra/event-store/projection-progress.js';
import { lockCheckpoint, moveCheckpoint, readCheckpoint } from '../infra/event-store/processor-checkpoint.js';
import type { KeptColumns, Projector } from './projector.js';
import { eventStoreDbFollowingProjectors, followingProjectors, projectors } from './projectors.js';

/** Events read and projected at a time: each projector writes a page's events in a few statements (project-events.ts). */
const defaultPageSize = 2_000;

export type RebuildOptions = { eventStoreDb?: ReadAllPage; onProgress?: (events: number) => void; pageSize?: number };

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
  { eventStoreDb, onProgress = () => undefined, pageSize = defaultPageSize }: RebuildOptions = {},
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
    const appended = inAppend.length > 0 ? await replayLog(trx, inAppend, pagesOfLog(trx, false, pageSize), onProgress) : { events: 0 };
    let followed = 0;
    if (runnerAt) {
      const read: ReadPage = eventStoreDb ? (after) => eventStoreDb({ after, maxCount: pageSize }) : pagesOfLog(trx, true, pageSize);
      const { events, reached } = await replayLog(trx, following, read, (events) => onProgress(appended.events + events));
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
  (trx: Transaction<DB>, horizon: boolean, pageSize: number): ReadPage =>
  async (after) => {
    const page = await readLog(trx, { after, maxCount: pageSize, horizon });
    return { ...page, end: page.events.length < pageSize };
  };

/** Applies the log from its start through `through`, telling `onProgress` after each page; answers how many events it applied and the last one's position. */
async function replayLog(
  trx: Transaction<DB>,
  through: readonly Projector[],
  read: ReadPage,
  onProgress: (events: number) => void,
): Promise<{ events: number; reached: LogPosition }> {
  let events = 0;
  let after = logStart;
  let reached = logStart;
  for (;;) {
    const page = await read(after);
    await projectEvents(through, trx, page.events);
    events += page.events.length;
    onProgress(events);
    after = page.next;
    const last = page.events.at(-1);
    if (last) reached = positionOf(last);
    if (page.end) return { events, reached };
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
