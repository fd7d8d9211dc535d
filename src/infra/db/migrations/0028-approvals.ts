import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The live approval delegations (contract §24), projected from their streams; a deleted one's row is gone.
  await sql`
    create table approval_delegations (
      id uuid primary key,
      workspace uuid not null,
      approver_profile_id text not null,
      delegate_profile_id text not null,
      valid_to timestamptz not null,
      delegation jsonb not null,
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index approval_delegations_by_delegate on approval_delegations (delegate_profile_id, valid_to)`.execute(db);
  await sql`create index approval_delegations_by_approver on approval_delegations (approver_profile_id, valid_to)`.execute(db);
  // booking.approval_reminder of a booking still pending is a durable timer like the others.
  await sql`alter table timers drop constraint timers_kind_check`.execute(db);
  await sql`alter table timers add constraint timers_kind_check
    check (kind in ('reminder', 'no_show', 'complete', 'expire_pending', 'approval_reminder'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from timers where kind = 'approval_reminder'`.execute(db);
  await sql`alter table timers drop constraint timers_kind_check`.execute(db);
  await sql`alter table timers add constraint timers_kind_check check (kind in ('reminder', 'no_show', 'complete', 'expire_pending'))`.execute(db);
  await sql`drop table approval_delegations`.execute(db);
}
