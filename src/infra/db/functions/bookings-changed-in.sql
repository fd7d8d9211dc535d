-- The transaction that last wrote each booking row (contract §25's sync tokens): set on insert by
-- the column's default (migration 0038) and on update by this trigger, whoever writes the row —
-- the append's inline projection, the log's followers with PROJECTIONS=async, a rebuild.
create or replace function bookings_changed_in() returns trigger language plpgsql as $$
begin
  new.changed_in := pg_current_xact_id();
  return new;
end $$;

drop trigger if exists bookings_changed_in on bookings;
create trigger bookings_changed_in before update on bookings
for each row execute function bookings_changed_in();
