-- The transaction that last wrote each resource row, for the free search that follows a
-- workspace's changes (src/projections/resource/followed-workspaces.ts): set on insert by the
-- column's default (migration 0042) and on update by this trigger, whoever writes the row.
create or replace function resources_changed_in() returns trigger language plpgsql as $$
begin
  new.changed_in := pg_current_xact_id();
  return new;
end $$;

drop trigger if exists resources_changed_in on resources;
create trigger resources_changed_in before update on resources
for each row execute function resources_changed_in();
