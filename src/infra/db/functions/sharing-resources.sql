-- Contract §22, combined rooms: the resources other than r whose bookings share one with a booking
-- of r: r's parts, the wholes holding r, and the wholes holding one of r's parts. Empty for every
-- resource that is neither a whole nor a part. Its TypeScript twin is
-- src/domain/resource/resource-parts.ts's sharingOf.
-- PL/pgSQL, not SQL: every create's state, every append's occupation guard and every free-slots read
-- call it, and an SQL function that aggregates is not inlined, so it was parsed and planned again at
-- each call; PL/pgSQL keeps its statements' plans per connection. A resource that is neither a whole
-- nor a part (no parts of its own, no live whole listing it: the GIN index of migration 0033) answers
-- after two index probes, without the union.
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
end $$;
