import { sql, type Transaction } from 'kysely';
import type { Database } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import { logStart } from '../infra/event-store/event-store.js';
import { readLog } from '../infra/event-store/postgres-event-store.js';
import { projectEvents } from '../infra/event-store/project-events.js';
import type { KeptColumns } from './projector.js';
import { projectors } from './projectors.js';

const batchSize = 1_000;

/**
 * Drops every inline read model and fills it again from the whole log through the projectors the
 * store runs, in one transaction. The tables are locked against writers first (readers keep reading
 * the old rows until commit), so no append's projection can interleave: an append still running
 * when the lock is taken waits, and projects its own events onto the rebuilt tables once the
 * rebuild commits. With the writers locked out, every committed event is final: the log is read
 * without the late-commit horizon, which a transaction open elsewhere on the server would hold back.
 * Columns kept out of the events (device key hashes, packages, sign-in identities) are carried over.
 */
export async function rebuildReadModels(db: Database): Promise<{ events: number }> {
  const tables = projectors.flatMap((p) => p.tables);
  const kept = projectors.flatMap((p) => p.kept ?? []);
  return db.transaction().execute(async (trx) => {
    await sql`lock table ${sql.join(tables.map((t) => sql.table(t)))} in exclusive mode`.execute(trx);
    for (const columns of kept) await setAside(trx, columns);
    // Children first: bookings refer to resources, applications to projects.
    for (const table of [...tables].reverse()) await trx.deleteFrom(table).execute();
    let count = 0;
    for (let after = logStart; ; ) {
      const { events, next } = await readLog(trx, { after, maxCount: batchSize, horizon: false });
      await projectEvents(projectors, trx, events);
      count += events.length;
      if (events.length < batchSize) break;
      after = next;
    }
    for (const columns of kept) await restore(trx, columns);
    return { events: count };
  });
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
