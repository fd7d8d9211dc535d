import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table zones (
      workspace uuid not null,
      id text not null,
      name text not null,
      parent_zone_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (workspace, id),
      foreign key (workspace, parent_zone_id) references zones (workspace, id)
    )`.execute(db);
  await sql`
    create table devices (
      workspace uuid not null,
      id text not null,
      short_name text not null,
      name text not null,
      type text not null,
      visible boolean not null,
      extra jsonb not null,
      decoder text not null,
      ext_name text not null,
      enable_alert boolean not null,
      timeout double precision not null,
      state_ref jsonb not null,
      api_key_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (workspace, id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table devices`.execute(db);
  await sql`drop table zones`.execute(db);
}
