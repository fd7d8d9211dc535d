-- Wakes the log followers and the webhook senders of every instance: PostgreSQL delivers a
-- notification when the inserting transaction commits, never for one that rolls back. A commit
-- that notifies takes a server-wide lock until its WAL is flushed, so a notification on every
-- append would serialise the appends: a transaction notifies only when no other one of this
-- database is about to (the try-lock is held to its end). The others commit alongside it; a
-- follower that woke before they did is woken by the next notifying commit, or polls.
create or replace function notify_channel() returns trigger language plpgsql as $$
begin
  if pg_try_advisory_xact_lock(notify_lock_key(tg_argv[0])) then
    perform pg_notify(tg_argv[0], '');
  end if;
  return null;
end $$;

drop trigger if exists events_appended on events;
create trigger events_appended after insert on events for each statement execute function notify_channel('events_appended');

drop trigger if exists webhook_deliveries_queued on webhook_deliveries;
create trigger webhook_deliveries_queued after insert on webhook_deliveries
for each statement execute function notify_channel('webhook_deliveries_queued');
