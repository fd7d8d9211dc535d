import { sql, type Kysely } from 'kysely';
import { chainHash, genesisHash } from '../../event-store/hash-chain.js';

type StoredEvent = { global_position: number; stream_id: string; stream_revision: number; event_type: string; data: unknown };

const batchSize = 1_000;

/** Chains the events stored before this migration, stream by stream, in batches. */
async function chainStoredEvents(db: Kysely<unknown>): Promise<void> {
  let after = { streamId: '', revision: -1 };
  let head = genesisHash;
  for (;;) {
    const { rows } = await sql<StoredEvent>`
      select global_position, stream_id, stream_revision, event_type, data from events
      where (stream_id, stream_revision) > (${after.streamId}, ${after.revision})
      order by stream_id, stream_revision limit ${batchSize}`.execute(db);
    if (rows.length === 0) return;
    const hashes = rows.map((row) => {
      if (row.stream_id !== after.streamId) head = genesisHash;
      head = chainHash(head, { type: row.event_type, data: row.data, revision: Number(row.stream_revision) });
      after = { streamId: row.stream_id, revision: Number(row.stream_revision) };
      return head;
    });
    await sql`
      update events set hash = v.hash
      from unnest(${rows.map((r) => r.global_position)}::bigint[], ${hashes}::text[]) as v(global_position, hash)
      where events.global_position = v.global_position`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // head_hash is the hash of the stream's last event; previous_head_hash the head before the last
  // append, which the append statement hands on to its insert (RETURNING shows only new values).
  await sql`
    alter table streams
      add column head_hash text not null default ${sql.lit(genesisHash)},
      add column previous_head_hash text not null default ${sql.lit(genesisHash)}`.execute(db);
  await sql`alter table events add column hash text`.execute(db);
  await chainStoredEvents(db);
  await sql`
    update streams set head_hash = last.hash, previous_head_hash = last.hash
    from (select distinct on (stream_id) stream_id, hash from events order by stream_id, stream_revision desc) as last
    where streams.stream_id = last.stream_id`.execute(db);
  await sql`alter table events alter column hash set not null`.execute(db);

  // The append computes the chain with event_hash_chain (src/infra/db/functions/event-hash-chain.sql);
  // events-append-only.sql refuses every change of the log.

  // A booking's history is read from the log by booking id alone (archived bookings included).
  await sql`create index events_by_booking on events (((data -> 'booking' ->> 'id')), global_position)
    where data ? 'booking'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index events_by_booking`.execute(db);
  await sql`alter table events drop column hash`.execute(db);
  await sql`alter table streams drop column head_hash, drop column previous_head_hash`.execute(db);
}
