import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { loadConfig } from '../../src/infra/config.js';
import { createEventStoreDbEventStore } from '../../src/infra/event-store/eventstoredb-event-store.js';
import { openLogReader } from '../../src/infra/event-store/open-log-reader.js';
import { replayLog, type ReplayRequest } from '../../src/workers/replay/replay-log.js';
import { ReplayUsageError } from '../../src/workers/replay/replay-usage-error.js';
import { collected } from '../support/collected-stream.js';
import { assertPublishedEvent } from '../support/published-event-schemas.js';
import { stubbedEventStoreDbEnv, stubEventStoreDbClient, type StubbedEventStoreDb } from '../support/stubbed-eventstoredb.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { appendPublishedHistory } from './append-published-history.js';

type Logged = { id: string; type: string; position: number };

const published = (events: Logged[]) => events.filter((e) => e.type !== 'ZoneUpdated');

// The client is replaced at its edge (connectionString); the script's reader, the replay and its
// stdout target are the real ones.
describe('npm run replay with EVENT_STORE=eventstoredb (contract §14)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let esdb: StubbedEventStoreDb;
  /** The appended history as `$all` holds it: each event at its own commit position. */
  let history: Logged[];

  before(async () => {
    esdb = stubEventStoreDbClient();
    database = await createTestDatabase();
    await appendPublishedHistory(createEventStoreDbEventStore(esdb.client), randomUUID());
    history = esdb.events().map((e) => ({ id: e.id, type: e.type, position: Number(e.position.commit) }));
  });
  after(async () => {
    esdb?.restore();
    await database?.destroy();
  });

  /** What `npm run replay` does with the configuration of an EventStoreDB deployment. */
  const replay = async (request: ReplayRequest) => {
    const config = loadConfig(stubbedEventStoreDbEnv);
    const log = await openLogReader(config, database.db);
    const [stdout, stderr] = [collected(), collected()];
    try {
      await replayLog(log.reader, request, { env: {}, stdout: stdout.stream, stderr: stderr.stream });
    } finally {
      await log.close();
    }
    return { stdout: stdout.text(), stderr: stderr.text() };
  };

  it('writes the events after the position to stdout, one envelope a line, in log order, with the original ids and positions', async () => {
    const after = history[2]!.position;
    const run = await replay({ after, to: 'stdout' });
    const envelopes = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    envelopes.forEach(assertPublishedEvent);
    const expected = published(history.filter((e) => e.position > after));
    expect(envelopes.map((e) => [e.id, e.position])).to.deep.equal(expected.map((e) => [e.id, e.position]));
    expect(envelopes.map((e) => e.event)).to.deep.equal([
      'booking.create', 'resource.register', 'resource.update', 'booking.create', 'booking.create', 'zone.delete',
    ]);
    expect(run.stderr).to.match(/replay \[/).and.match(/sent 6 events/);
  });

  it('replays the whole log from 0, ESDB’s own events left out', async () => {
    const run = await replay({ after: 0, to: 'stdout' });
    const ids = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).id);
    expect(ids).to.deep.equal(published(history).map((e) => e.id));
  });

  it('replays nothing and says so when --after is at or beyond the head (the last event’s commit position)', async () => {
    const head = history.at(-1)!.position;
    for (const after of [head, head + 1000]) {
      const run = await replay({ after, to: 'stdout' });
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.equal(`replay: nothing to replay: position ${after} is at or beyond the head of the log (${head})\n`);
    }
  });

  it('refuses a position that names no event of the log', async () => {
    const after = history[0]!.position + 1;
    const failure = await replay({ after, to: 'stdout' }).then(() => null, (error: unknown) => error);
    expect(failure).to.be.instanceOf(ReplayUsageError).with.property('message').that.matches(new RegExp(`--after ${after} is no position of the log`));
  });
});
