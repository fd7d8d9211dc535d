import { expect } from 'chai';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../src/infra/db/schema.js';
import { bind, sqlTemplate, upsertStatement } from '../../../src/infra/db/sql-template.js';
import type { EventOf, InlineProjection } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { verifyHashChains } from '../../../src/infra/event-store/verify-hash-chains.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

type Note = { id: string; slot: number; active: boolean };

const upsertNote = sqlTemplate<Note>((row) => [upsertStatement('notes', ['id', 'slot', 'active'], 'id', row)]);

/**
 * A projection of `Noted` events into `notes`, whose active rows take a slot each (as the
 * exclusion constraint takes a resource's time): it records the events its `apply` was given, so
 * that a test tells the append statement (no apply) from the transaction.
 */
function notesProjection(applied: EventOf[]): InlineProjection<Transaction<DB>> {
  return {
    handles: new Set(['Noted']),
    async apply(trx, events) {
      applied.push(...events);
      for (const event of events) {
        const { id, slot, active } = event.data as Note;
        await sql`insert into notes (id, slot, active) values (${id}, ${slot}, ${active}) on conflict (id) do update set slot = excluded.slot, active = excluded.active`.execute(trx);
      }
    },
    sqlOf: (event) => [bind(upsertNote, event.data as Note)],
    sqlKeyOf: (event) => (event.data as Note).id,
  };
}

const noted = (id: string, slot: number, active = true) => ({ type: 'Noted', data: { id, slot, active } });

describe('appending to several streams at once (PostgreSQL store, appendToStreams)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await sql`create table notes (id text primary key, slot integer not null, active boolean not null)`.execute(database.db);
    await sql`create unique index notes_one_active_a_slot on notes (slot) where active`.execute(database.db);
  });
  after(() => database.destroy());
  const notes = async () => (await sql<Note>`select id, slot, active from notes order by id`.execute(database.db)).rows;

  it('claims every stream at its revision, chains and projects their events in one statement', async () => {
    const applied: EventOf[] = [];
    const store = createPostgresEventStore(database.db, { projections: [notesProjection(applied)] });
    await store.appendToStream('unit-a', [noted('a0', 0)], 'no_stream');
    const recorded = await store.appendToStreams!([
      { streamId: 'unit-a', events: [noted('a1', 1), noted('a2', 2)], expectedRevision: 0 },
      { streamId: 'unit-b', events: [noted('b0', 3)], expectedRevision: 'no_stream' },
    ]);
    expect(recorded.map((e) => [e.streamId, e.streamRevision])).to.deep.equal([['unit-a', 1], ['unit-a', 2], ['unit-b', 0]]);
    expect(new Set(recorded.map((e) => e.transactionId)).size).to.equal(1);
    expect(applied).to.deep.equal([]);
    expect((await notes()).map((n) => n.id)).to.deep.equal(['a0', 'a1', 'a2', 'b0']);
    expect((await verifyHashChains(database.db)).breaks).to.deep.equal([]);
  });

  it('writes nothing on any stream, projections included, when one stream moved since its revision', async () => {
    const store = createPostgresEventStore(database.db, { projections: [notesProjection([])] });
    const thrown = await store
      .appendToStreams!([
        { streamId: 'unit-c', events: [noted('c0', 10)], expectedRevision: 'no_stream' },
        { streamId: 'unit-a', events: [noted('a9', 11)], expectedRevision: 1 },
      ])
      .catch((error: unknown) => error);
    expect(thrown).to.be.instanceOf(WrongExpectedRevisionError).and.include({ streamId: 'unit-a' });
    expect(await store.readStreamRevision('unit-c')).to.equal(null);
    expect(await store.readStreamRevision('unit-a')).to.equal(2);
    expect((await notes()).map((n) => n.id)).to.not.include.members(['c0', 'a9']);
  });

  it("applies the projections' statements in the events' order: a slot freed by the first event is taken by the second", async () => {
    const applied: EventOf[] = [];
    const store = createPostgresEventStore(database.db, { projections: [notesProjection(applied)] });
    await store.appendToStreams!([{ streamId: 'unit-a', events: [noted('a1', 1, false), noted('a3', 1)], expectedRevision: 2 }]);
    expect(applied).to.deep.equal([]);
    expect((await notes()).filter((n) => n.slot === 1)).to.deep.equal([
      { id: 'a1', slot: 1, active: false },
      { id: 'a3', slot: 1, active: true },
    ]);
  });

  it('takes the transaction when two events write one row, which one statement cannot write one after the other', async () => {
    const applied: EventOf[] = [];
    const store = createPostgresEventStore(database.db, { projections: [notesProjection(applied)] });
    const recorded = await store.appendToStreams!([{ streamId: 'unit-d', events: [noted('d0', 20), noted('d0', 21)], expectedRevision: 'no_stream' }]);
    expect(recorded.map((e) => e.streamRevision)).to.deep.equal([0, 1]);
    expect(applied.map((e) => (e.data as Note).slot)).to.deep.equal([20, 21]);
    expect((await notes()).find((n) => n.id === 'd0')).to.deep.equal({ id: 'd0', slot: 21, active: true });
  });
});
