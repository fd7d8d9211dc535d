import { sql, type Kysely } from 'kysely';

/**
 * sharing_resources (migration 0033) answers the same, in PL/pgSQL: every create's state, every
 * create's and reschedule's occupation guard in the append, and every free-slots read call it, and
 * as an SQL function that cannot be inlined (it aggregates) its statement was parsed and planned
 * again at each call. PL/pgSQL keeps its statements' plans per connection, and a resource that is
 * neither a whole nor a part (no parts of its own, no live whole listing it: the GIN index of
 * migration 0033) answers after two index probes, without the union.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function sharing_resources(resource uuid) returns uuid[]
    language plpgsql stable as $$
    declare
      own uuid[];
    begin
      select r.parts into own from resources r where r.id = resource;
      if not found then
        return '{}';
      end if;
      if own is null and not exists (
        select 1 from resources w where w.parts && array[resource] and w.id <> resource and w.deleted_at is null) then
        return '{}';
      end if;
      return (select coalesce(array_agg(distinct s.id order by s.id), '{}') from (
        select unnest(own) as id
        union
        select w.id from resources w
        where w.id <> resource and w.deleted_at is null and w.parts is not null
          and w.parts && (array[resource] || coalesce(own, '{}'))) as s);
    end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function sharing_resources(resource uuid) returns uuid[]
    language sql stable as $$
      select coalesce(array_agg(distinct s.id order by s.id), '{}') from (
        select unnest(r.parts) as id from resources r where r.id = $1
        union
        select w.id from resources w, resources r
        where r.id = $1 and w.id <> $1 and w.deleted_at is null and w.parts is not null
          and w.parts && (array[$1] || coalesce(r.parts, '{}'))) as s
    $$`.execute(db);
}
