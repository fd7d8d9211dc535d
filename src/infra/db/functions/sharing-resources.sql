-- Contract §22, combined rooms: the resources other than r whose bookings share one with a booking
-- of r: r's parts, the wholes holding r, and the wholes holding one of r's parts. Empty for every
-- resource that is neither a whole nor a part. Its TypeScript twin is
-- src/domain/resource/resource-parts.ts's sharingOf.
create or replace function sharing_resources(resource uuid) returns uuid[]
language sql stable as $$
  select coalesce(array_agg(distinct s.id order by s.id), '{}') from (
    select unnest(r.parts) as id from resources r where r.id = $1
    union
    select w.id from resources w, resources r
    where r.id = $1 and w.id <> $1 and w.deleted_at is null and w.parts is not null
      and w.parts && (array[$1] || coalesce(r.parts, '{}'))) as s
$$;
