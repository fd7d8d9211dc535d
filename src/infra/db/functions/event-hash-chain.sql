-- The chain of one append, computed inside the append statement: element i is the hash of the
-- event at first_revision + i. types and datas are the canonical JSON texts; the TypeScript twin
-- is src/infra/event-store/hash-chain.ts's chainHash (tests/infra/event-store/hash-chain.test.ts).
create or replace function event_hash_chain(previous text, first_revision bigint, types text[], datas text[]) returns text[]
language plpgsql immutable strict as $$
declare
  hashes text[] := '{}';
  head text := previous;
begin
  for i in 1 .. coalesce(array_length(types, 1), 0) loop
    head := encode(sha256(convert_to(
      head || '{"data":' || datas[i] || ',"revision":' || (first_revision + i - 1)::text || ',"type":' || types[i] || '}',
      'UTF8')), 'hex');
    hashes := hashes || head;
  end loop;
  return hashes;
end $$;
