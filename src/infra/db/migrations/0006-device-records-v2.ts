import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // PUT /device/v1/devices/self finds its device by the hash of the key it presents.
  await sql`create unique index devices_by_api_key on devices (api_key_hash) where api_key_hash is not null`.execute(db);
  // Child lookups: deleting a zone with children, join=children.
  await sql`create index zones_by_parent on zones (workspace, parent_zone_id) where parent_zone_id is not null`.execute(db);
  await sql`alter table zones add constraint zones_not_own_parent check (parent_zone_id is distinct from id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table zones drop constraint zones_not_own_parent`.execute(db);
  await sql`drop index zones_by_parent`.execute(db);
  await sql`drop index devices_by_api_key`.execute(db);
}
