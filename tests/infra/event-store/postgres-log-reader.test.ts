import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { logStart, type EventStore } from '../../../src/infra/event-store/event-store.js';
import type { LogReader } from '../../../src/infra/event-store/log-reader.js';
import { createPostgresEventStore, readLog, type LogPage } from '../../../src/infra/event-store/postgres-event-store.js';
import { createPostgresLogReader } from '../../../src/infra/event-store/postgres-log-reader.js';
import { zoneRecord } from '../../support/record-samples.js';
import { openSession } from '../../support/database-session.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

const workspace = 'w-head';
const zoneDeleted = (id: string) => ({
  type: 'ZoneDeleted',
  data: { workspace, id, record: zoneRecord(workspace, id), by: 'admin-1', at: '2030-01-01T08:00:00Z' },
});

/** Every page from the start up to `upTo`, until a page answers `next` = `upTo`: the ids read. */
async function readUpTo(reader: LogReader, upTo: number): Promise<string[]> {
  const ids: string[] = [];
  for (let after = 0; after !== upTo; ) {
    const page = await reader.readPublished({ after, maxCount: 1, names: ['zone.delete'], upTo });
    if (!page) throw new Error(`after=${after} refused`);
    ids.push(...page.events.map((e) => e.id));
    after = page.next;
  }
  return ids;
}

// A transaction that took its id first and inserted last puts its event before one with a smaller position.
describe('the PostgreSQL log reader up to a head (log order is the commits’, not the positions’)', () => {
  let database: TestDatabase;
  let store: EventStore;
  let reader: LogReader;
  const ids = { first: '', slow: '', fast: '', later: '' };
  const positions = { slow: 0, fast: 0, later: 0 };

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    store = createPostgresEventStore(database.db, { projections: [] });
    reader = createPostgresLogReader(database.db);
    ids.first = (await store.appendToStream('zone-first', [zoneDeleted('first')], 'any')).events[0]!.id;
    const config = database.config!;
    const slow = await openSession(config, 'service');
    try {
      await slow.query('begin');
      await slow.query('select pg_current_xact_id()');
      const fast = (await store.appendToStream('zone-fast', [zoneDeleted('fast')], 'any')).events[0]!;
      [ids.fast, positions.fast] = [fast.id, fast.globalPosition];
      ids.slow = randomUUID();
      const { data } = zoneDeleted('slow');
      const { rows } = await slow.query(
        `insert into events (stream_id, stream_revision, event_id, event_type, data, hash) values ('zone-slow', 0, $1, 'ZoneDeleted', $2, 'x')
         returning global_position`,
        [ids.slow, JSON.stringify(data)],
      );
      positions.slow = Number(rows[0].global_position);
      await slow.query('commit');
    } finally {
      await slow.end();
    }
    const later = (await store.appendToStream('zone-later', [zoneDeleted('later')], 'any')).events[0]!;
    [ids.later, positions.later] = [later.id, later.globalPosition];
  });
  after(() => database?.destroy());

  it('names as the head the last event in log order, whatever its position', async () => {
    expect(positions.slow).to.be.greaterThan(positions.fast);
    expect(await reader.readHeadPosition()).to.equal(positions.later);
  });

  it('reads up to the head inclusive, an event with a greater position but an earlier commit included, none after it', async () => {
    expect(await readUpTo(reader, positions.fast)).to.deep.equal([ids.first, ids.slow, ids.fast]);
    expect(await readUpTo(reader, positions.later)).to.deep.equal([ids.first, ids.slow, ids.fast, ids.later]);
  });

  it('answers no events and next = upTo from a position at or past it', async () => {
    for (const after of [positions.fast, positions.later]) {
      expect(await reader.readPublished({ after, maxCount: 10, names: ['zone.delete'], upTo: positions.fast })).to.deep.equal({ events: [], next: positions.fast });
    }
  });
});

describe('a filtered read of the PostgreSQL log (readLog with a scan window)', () => {
  let database: TestDatabase;
  /** Zone ids in log order; the filter keeps those starting with "keep". */
  const zones = ['a0', 'keep1', 'a2', 'a3', 'keep4', 'keep5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11', 'keep12', 'a13'];
  const where = sql<boolean>`data ->> 'id' like 'keep%'`;
  const ids = (page: LogPage) => page.events.map((event) => (event.data as { id: string }).id);
  const positionOf = async (zone: string) =>
    Number((await sql<{ p: string }>`select global_position as p from events where data ->> 'id' = ${zone}`.execute(database.db)).rows[0]!.p);

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    const store = createPostgresEventStore(database.db, { projections: [] });
    for (const zone of zones) await store.appendToStream(`zone-${zone}`, [zoneDeleted(zone)], 'any');
  });
  after(() => database?.destroy());

  const read = (after: LogPage['next'], maxCount: number, scanWindow: number) => readLog(database.db, { after, maxCount, filter: { where, scanWindow } });

  it('answers a full page of matches and continues after its last match', async () => {
    const page = await read(logStart, 2, 100);
    expect(ids(page)).to.deep.equal(['keep1', 'keep4']);
    expect(page.next.globalPosition).to.equal(await positionOf('keep4'));
    const rest = await read(page.next, 2, 100);
    expect(ids(rest)).to.deep.equal(['keep5', 'keep12']);
  });

  it('stops at the window: fewer matches, and the next read continues after the window’s last event', async () => {
    const page = await read(logStart, 10, 4);
    expect(ids(page)).to.deep.equal(['keep1']);
    expect(page.next.globalPosition).to.equal(await positionOf('a3'));
    const empty = await read(page.next, 10, 3);
    expect(ids(empty)).to.deep.equal(['keep4', 'keep5']);
    expect(empty.next.globalPosition).to.equal(await positionOf('a6'));
    const none = await read(empty.next, 10, 4);
    expect(ids(none)).to.deep.equal([]);
    expect(none.next.globalPosition).to.equal(await positionOf('a10'));
  });

  it('counts a match that is the window’s last event once', async () => {
    const page = await read(logStart, 10, 5);
    expect(ids(page)).to.deep.equal(['keep1', 'keep4']);
    expect(page.next.globalPosition).to.equal(await positionOf('keep4'));
  });

  it('continues after the log’s last event when the log ends inside the window, and stays there', async () => {
    const page = await read(logStart, 10, 1_000);
    expect(ids(page)).to.deep.equal(['keep1', 'keep4', 'keep5', 'keep12']);
    expect(page.next.globalPosition).to.equal(await positionOf('a13'));
    expect(await read(page.next, 10, 1_000)).to.deep.equal({ events: [], next: page.next });
  });
});
