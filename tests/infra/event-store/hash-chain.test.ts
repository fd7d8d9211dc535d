import { runScript } from '../../support/run-script.js';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { canonicalJson, chainHash, genesisHash } from '../../../src/infra/event-store/hash-chain.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { verifyHashChains } from '../../../src/infra/event-store/verify-hash-chains.js';
import { verifyHashChainsInParallel } from '../../../src/infra/event-store/verify-hash-chains-in-parallel.js';
import type { EventStore } from '../../../src/infra/event-store/event-store.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** npm run verify-log against the test database: its exit code and what it wrote. */
const runVerifyLog = (env: Record<string, string>, args: string[] = []) => runScript('verify-log', args, { ...process.env, ...env });

describe('tamper evidence of the event log', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let store: EventStore;
  beforeEach(async () => {
    database = await createTestDatabase();
    store = createPostgresEventStore(database.db, { projections: [] });
  });
  afterEach(() => database.destroy());

  describe('canonical JSON', () => {
    it('sorts keys at every depth, drops undefined members and writes no whitespace', () => {
      expect(canonicalJson({ b: 1, a: [{ z: null, y: 'ü"' }, undefined], c: undefined })).to.equal('{"a":[{"y":"ü\\"","z":null},null],"b":1}');
    });
  });

  describe('the chain stored with every event', () => {
    it('links each event of a stream to the one before, whatever the expected revision', async () => {
      const stream = `test-${randomUUID()}`;
      await store.appendToStream(stream, [{ type: 'Counted', data: { n: 1, text: 'Grüße 🎉' } }, { type: 'Counted', data: { z: 2, a: { y: 1, b: 2 } } }], 'no_stream');
      await store.appendToStream(stream, [{ type: 'Counted', data: { n: 3 } }], 1);
      await store.appendToStream(stream, [{ type: 'Other', data: { list: [3, 1.5, -2e-7] } }], 'any');
      await store.appendToStream(stream, [{ type: 'Counted', data: { n: 5 } }, { type: 'Counted', data: {} }], 'stream_exists');
      const events = await store.readStream(stream);
      let previous = genesisHash;
      for (const event of events) {
        previous = chainHash(previous, { type: event.type, data: event.data, revision: event.streamRevision });
        expect(event.hash, `revision ${event.streamRevision}`).to.equal(previous);
      }
      expect(events).to.have.length(6);
      const head = await database.db.selectFrom('streams').select('head_hash').where('stream_id', '=', stream).executeTakeFirstOrThrow();
      expect(head.head_hash).to.equal(previous);
    });

    it('gives the first event the hash of 64 zeros followed by its canonical JSON', async () => {
      const stream = `test-${randomUUID()}`;
      const [event] = (await store.appendToStream(stream, [{ type: 'Counted', data: { b: 2, a: 1 } }], 'any')).events;
      const { createHash } = await import('node:crypto');
      const expected = createHash('sha256').update(`${'0'.repeat(64)}{"data":{"a":1,"b":2},"revision":0,"type":"Counted"}`).digest('hex');
      expect(event!.hash).to.equal(expected);
    });

    it('the events table refuses UPDATE and DELETE', async () => {
      const stream = `test-${randomUUID()}`;
      await store.appendToStream(stream, [{ type: 'Counted', data: { n: 1 } }], 'no_stream');
      const update = await sql`update events set data = '{"n": 2}' where stream_id = ${stream}`.execute(database.db).catch((e: unknown) => e);
      expect(update).to.be.instanceOf(Error);
      expect((update as Error).message).to.match(/append-only/);
      const remove = await sql`delete from events where stream_id = ${stream}`.execute(database.db).catch((e: unknown) => e);
      expect(remove).to.be.instanceOf(Error);
      expect((await store.readStream(stream)).map((e) => e.data)).to.deep.equal([{ n: 1 }]);
    });
  });

  describe('verifying the chains', () => {
    async function editBehindTheTriggersBack(statement: ReturnType<typeof sql>) {
      await sql`alter table events disable trigger events_append_only`.execute(database.db);
      await statement.execute(database.db);
      await sql`alter table events enable trigger events_append_only`.execute(database.db);
    }

    async function threeStreams() {
      const streams = [1, 2, 3].map(() => `test-${randomUUID()}`);
      for (const stream of streams) {
        await store.appendToStream(stream, [1, 2, 3].map((n) => ({ type: 'Counted', data: { n } })), 'no_stream');
      }
      return streams;
    }

    it('finds every chain intact after ordinary appends', async () => {
      await threeStreams();
      const result = await verifyHashChains(database.db);
      expect(result).to.deep.equal({ checked: 9, breaks: [] });
    });

    it('names the edited event when a row was changed with the trigger disabled', async () => {
      const [, second] = await threeStreams();
      const [, edited] = await store.readStream(second!);
      await editBehindTheTriggersBack(sql`update events set data = '{"n": 20}' where event_id = ${edited!.id}`);
      const { breaks } = await verifyHashChains(database.db);
      expect(breaks).to.deep.equal([
        { globalPosition: edited!.globalPosition, eventId: edited!.id, streamId: second, revision: 1, reason: 'hash does not match' },
      ]);
    });

    it('notices a deleted event and a deleted last event', async () => {
      const [first, , third] = await threeStreams();
      const firstEvents = await store.readStream(first!);
      const thirdEvents = await store.readStream(third!);
      await editBehindTheTriggersBack(sql`delete from events where event_id in (${firstEvents[1]!.id}, ${thirdEvents[2]!.id})`);
      const { breaks } = await verifyHashChains(database.db);
      expect(breaks.map((b) => [b.eventId, b.reason])).to.deep.equal([
        [firstEvents[2]!.id, 'revision missing before it'],
        [thirdEvents[1]!.id, 'stream head does not match'],
      ]);
    });

    it('finds the same breaks on worker threads, each over its own range of streams, as in one pass', async function () {
      if (!database.isServer) this.skip(); // each worker opens its own connection to the database server
      const streams = [...(await threeStreams()), ...(await threeStreams()), ...(await threeStreams())];
      const events = await Promise.all(streams.map((stream) => store.readStream(stream!)));
      await editBehindTheTriggersBack(sql`update events set data = '{"n": 20}' where event_id in (${events[0]![1]!.id}, ${events[8]![2]!.id})`);
      await editBehindTheTriggersBack(sql`delete from events where event_id = ${events[4]![1]!.id}`);
      const progress: number[] = [];
      const parallel = await verifyHashChainsInParallel(database.db, database.config!, { parts: 3, onProgress: (checked) => progress.push(checked) });
      const single = await verifyHashChains(database.db);
      expect(single.breaks).to.have.length(3);
      expect(parallel).to.deep.equal(single);
      expect(progress.at(-1)).to.equal(single.checked);
    });

    it('npm run verify-log exits 0 on an intact log and non-zero naming the first bad event', async function () {
      if (!database.isServer) this.skip(); // the script opens its own connection to the database server
      const [first, second] = await threeStreams();
      const ok = await runVerifyLog(database.env);
      expect(ok.code, ok.stderr).to.equal(0);
      expect(ok.stdout).to.match(/verified 9 events/);
      const [, , late] = await store.readStream(second!);
      const [, early] = await store.readStream(first!);
      await editBehindTheTriggersBack(sql`update events set event_type = 'Forged' where event_id in (${late!.id}, ${early!.id})`);
      const bad = await runVerifyLog(database.env);
      expect(bad.code).to.equal(1);
      expect(bad.stderr).to.include(`event ${early!.id} (position ${early!.globalPosition}`);
      expect(bad.stderr).to.match(/1 more stream/);
      const onWorkers = await runVerifyLog(database.env, ['--workers', '3']);
      expect(onWorkers.code).to.equal(1);
      expect(onWorkers.stderr).to.include(`event ${early!.id} (position ${early!.globalPosition}`);
      expect(onWorkers.stderr).to.match(/1 more stream/);
    });

    it('npm run verify-log refuses --workers outside 1–8 with exit code 2 and the usage', async () => {
      for (const workers of ['0', '9', 'two']) {
        const refused = await runVerifyLog(database.env, ['--workers', workers]);
        expect(refused.code, workers).to.equal(2);
        expect(refused.stderr).to.match(/--workers must be a whole number from 1 to 8.*usage: npm run verify-log/);
      }
    });
  });
});
