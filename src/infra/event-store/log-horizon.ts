import { sql, type RawBuilder } from 'kysely';

/**
 * The first transaction id whose events may still change the global log: the oldest transaction
 * of this database still running when the statement's snapshot was taken, or the snapshot's xmax
 * when none is. Events of smaller transactions are final: every one of them has committed or
 * aborted, so a reader that stops below the horizon never passes over a late commit.
 *
 * pg_snapshot_xmin would count every database of the server, and a long batch or a session idle
 * in transaction elsewhere would stall every follower here. So a running transaction is left out
 * only when pg_stat_activity positively shows it belongs to another database (backend_xid is a
 * 32-bit xid, the snapshot lists xid8). One that cannot be attributed (it ended meanwhile, or its
 * backend is hidden for lack of privilege, or it is a prepared transaction) counts as this
 * database's: the horizon waits rather than skip an event. On the embedded engine, one session,
 * nothing else is ever running and the horizon is the snapshot's xmax.
 */
export const logHorizon: RawBuilder<string> = sql<string>`(
  select coalesce(
    (select min(running) from pg_snapshot_xip(snapshot) as running
      where running::xid not in (
        select backend_xid from pg_stat_activity
        where backend_xid is not null and datname <> current_database())),
    pg_snapshot_xmax(snapshot))
  from pg_current_snapshot() as snapshot)`;

/** The condition on an events row (its `transaction_id` column) that its transaction is final. */
export const isFinalInLog = (transactionId: RawBuilder<unknown> = sql.ref('transaction_id')) => sql<boolean>`${transactionId} < ${logHorizon}`;
