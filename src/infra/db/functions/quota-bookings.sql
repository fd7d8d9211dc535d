-- A quota's hold inside the append's statement (README, "How the quota holds under concurrency").
--
-- `booker_quota_bookings` are the booker's bookings a quota of the workspace may count around a
-- start: the counted statuses, no series parent, starting within a margin of it wide enough for
-- the longest period of the workspace's quotas in any time zone (2 days for a day of up to 25
-- hours, 8 for a week, 33 for a month), so every period containing the start lies inside. The
-- margin is a superset, not the period: which bookings count stays the domain's (quotaUsagesAt,
-- src/domain/quota). The create reads them in its state statement with their fingerprint.

create or replace function quota_count_margin(workspace uuid) returns interval
language plpgsql stable as $$
begin
  return (select make_interval(days => max(case quota ->> 'per' when 'day' then 2 when 'week' then 8 else 33 end)) from quotas where quotas.workspace = $1);
end $$;

create or replace function booker_quota_bookings(workspace uuid, booker text, start timestamptz)
returns table (id uuid, bookable_resource_id uuid, start_time timestamptz, end_time timestamptz)
language sql stable as $$
  -- The margin as an uncorrelated subquery: computed once before the scan (not once per row, as
  -- the bare call was wherever the plan left the range to a filter), and a value the index
  -- condition on (workspace, booker, start) can take.
  select b.id, b.bookable_resource_id, b.start_time, b.end_time from bookings b
  where b.workspace = $1 and b.booker_profile_id = $2
    and b.start_time >= $3 - (select quota_count_margin($1)) and b.start_time < $3 + (select quota_count_margin($1))
    and b.status in ('pending', 'confirmed', 'completed', 'no_show') and not b.is_series_parent
$$;

create or replace function booker_quota_fingerprint(workspace uuid, booker text, start timestamptz) returns text
language plpgsql stable as $$
begin
  -- PL/pgSQL keeps the statement's plan per connection (an SQL function's would be made again each call).
  return (
    select count(*) || ':' || coalesce(md5(string_agg(
      q.id::text || ' ' || floor(extract(epoch from q.start_time) * 1000)::bigint || ' ' || floor(extract(epoch from q.end_time) * 1000)::bigint,
      ',' order by q.id)), '')
    from booker_quota_bookings($1, $2, $3) q);
end $$;
