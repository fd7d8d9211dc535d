import { sql, type Kysely } from 'kysely';

/**
 * A quota's hold inside the append's statement (docs/booking.md, "How the quota holds under concurrency"),
 * as the blackout guard of migration 0019 is: no transaction, no round trip of its own.
 *
 * `booker_quota_bookings` are the booker's bookings a quota of the workspace may count around a
 * start: the counted statuses, no series parent, starting within a margin of it wide enough for
 * the longest period of the workspace's quotas in any time zone (2 days for a day of up to 25
 * hours, 8 for a week, 33 for a month), so every period containing the start lies inside. The
 * margin is a superset, not the period: which bookings count stays the domain's (quotaUsagesAt).
 * The create reads them in its state
 * statement with their fingerprint; its BookingCreated carries that fingerprint in the metadata
 * (`quotaSeen`), and the trigger, before the event is inserted, takes the booker's quota lock and
 * computes the fingerprint again with a fresh snapshot. A difference means the decision did not
 * see a booking of the booker committed since: the append fails and the command decides again.
 * The key leaves the stored metadata. The lock is the one a reschedule's or a series' hold takes in
 * its transaction (src/commands/booking/quota-hold.ts), so every quota-bound append of a booker
 * takes turns with every other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function quota_count_margin(workspace uuid) returns interval
    language plpgsql stable as $$
    begin
      return (select make_interval(days => max(case quota ->> 'per' when 'day' then 2 when 'week' then 8 else 33 end)) from quotas where quotas.workspace = $1);
    end $$`.execute(db);
  await sql`
    create function booker_quota_bookings(workspace uuid, booker text, start timestamptz)
    returns table (id uuid, bookable_resource_id uuid, start_time timestamptz, end_time timestamptz)
    language sql stable as $$
      -- The margin is a stable value computed before the scan, so the range is in the index condition.
      select b.id, b.bookable_resource_id, b.start_time, b.end_time from bookings b
      where b.workspace = $1 and b.booker_profile_id = $2
        and b.start_time >= $3 - quota_count_margin($1) and b.start_time < $3 + quota_count_margin($1)
        and b.status in ('pending', 'confirmed', 'completed', 'no_show') and not b.is_series_parent
    $$`.execute(db);
  await sql`
    create function booker_quota_fingerprint(workspace uuid, booker text, start timestamptz) returns text
    language plpgsql stable as $$
    begin
      -- PL/pgSQL keeps the statement's plan per connection (an SQL function's would be made again each call).
      return (
        select count(*) || ':' || coalesce(md5(string_agg(
          q.id::text || ' ' || floor(extract(epoch from q.start_time) * 1000)::bigint || ' ' || floor(extract(epoch from q.end_time) * 1000)::bigint,
          ',' order by q.id)), '')
        from booker_quota_bookings($1, $2, $3) q);
    end $$`.execute(db);
  await sql`
    create function hold_booker_quota() returns trigger language plpgsql as $$
    declare
      booking jsonb := new.data -> 'booking';
      seen text := new.metadata ->> 'quotaSeen';
    begin
      new.metadata := new.metadata - 'quotaSeen';
      -- The key of lock-keys.ts's quotaLockKey (quotaLockKeyPrefix): the same lock as the command's hold.
      perform pg_advisory_xact_lock(hashtextextended('workspace-booking:quota:' || (booking ->> 'workspace') || ':' || (booking ->> 'bookerProfileId'), 0));
      if booker_quota_fingerprint((booking ->> 'workspace')::uuid, booking ->> 'bookerProfileId', (booking ->> 'startTime')::timestamptz) is distinct from seen then
        raise exception 'the quota usage of booker % changed while booking %', booking ->> 'bookerProfileId', booking ->> 'id'
          using errcode = 'check_violation', constraint = 'bookings_quota_usage_seen';
      end if;
      return new;
    end $$`.execute(db);
  await sql`
    create trigger events_booking_quota_hold before insert on events
    for each row when (new.event_type = 'BookingCreated' and new.metadata ? 'quotaSeen')
    execute function hold_booker_quota()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger events_booking_quota_hold on events`.execute(db);
  await sql`drop function hold_booker_quota()`.execute(db);
  await sql`drop function booker_quota_fingerprint(uuid, text, timestamptz)`.execute(db);
  await sql`drop function booker_quota_bookings(uuid, text, timestamptz)`.execute(db);
  await sql`drop function quota_count_margin(uuid)`.execute(db);
}
