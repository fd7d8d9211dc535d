import { sql, type RawBuilder } from 'kysely';
import { serviceApplicationName } from '../db/service-application-name.js';

/**
 * The first transaction id whose events may still change the global log: the oldest transaction
 * of this database's service connections still running when the statement's snapshot was taken, or
 * the snapshot's xmax when none is. Events of smaller transactions are final: every one of them has
 * committed or aborted, so a reader that stops below the horizon never passes over a late commit.
 *
 * Only the service's pooled connections append (application_name, service-application-name.ts).
 * pg_snapshot_xmin would count every transaction of the server, and a long batch in another
 * database, or an operator's session idle in transaction after an update in this one, would stall
 * every follower. So a running transaction is left out only when pg_stat_activity positively shows
 * it belongs to another database or to a connection not named as the service (backend_xid is a
 * 32-bit xid, the snapshot lists xid8). One that cannot be attributed (it ended meanwhile, or its
 * backend is hidden for lack of privilege, or it is a prepared transaction) counts: the horizon
 * waits rather than skip an event. On the embedded engine, one session, nothing else is ever
 * running and the horizon is the snapshot's xmax.
 */
export const logHorizon: RawBuilder<string> = sql<string>`(
  select coalesce(
    (select min(running) from pg_snapshot_xip(snapshot) as running
      where running::xid not in (
        select backend_xid from pg_stat_activity
        where backend_xid is not null
          and (datname <> current_database() or application_name <> ${sql.lit(serviceApplicationName)}))),
    pg_snapshot_xmax(snapshot))
  from pg_current_snapshot() as snapshot)`;

/** The condition on an events row (its `transaction_id` column) that its transaction is final. */
export const isFinalInLog = (transactionId: RawBuilder<unknown> = sql.ref('transaction_id')) => sql<boolean>`${transactionId} < ${logHorizon}`;
