-- The advisory-lock keys taken in SQL, each the twin of a prefix of src/infra/db/lock-keys.ts
-- (tests/architecture/lock-keys.test.ts checks each is built from its prefix).

-- blackoutLockKeyPrefix: a blackout create (exclusive) against booking appends (shared), per workspace.
create or replace function blackout_lock_key(workspace uuid) returns bigint
language sql immutable strict as $$ select hashtextextended('workspace-booking:blackouts:' || workspace::text, 0) $$;

-- quotaLockKeyPrefix: a booker's quota-bound appends take turns (quotaLockKey in TypeScript).
create or replace function quota_lock_key(workspace text, booker text) returns bigint
language sql immutable strict as $$ select hashtextextended('workspace-booking:quota:' || workspace || ':' || booker, 0) $$;

-- poolLockKeyPrefix: the appends that place a booking on a pool take turns per resource.
create or replace function pool_lock_key(resource uuid) returns bigint
language sql immutable strict as $$ select hashtextextended('workspace-booking:pool:' || resource::text, 0) $$;

-- occupationLockKeyPrefix: the appends that place a booking, and the changes of parts, per resource they occupy.
create or replace function occupation_lock_key(resource uuid) returns bigint
language sql immutable strict as $$ select hashtextextended('workspace-booking:occupation:' || resource::text, 0) $$;

-- notifyLockKeyPrefix: one notifying commit at a time per channel.
create or replace function notify_lock_key(channel text) returns bigint
language sql immutable strict as $$ select hashtextextended('workspace-booking:notify:' || channel, 0) $$;
