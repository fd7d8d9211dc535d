import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { EventStore, RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { startWebhookReceiver } from '../infra/webhook/webhook-receiver.js';
import { assertPublishedEvent } from '../support/published-event-schemas.js';
import { postgresServer } from '../support/scratch-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { appendPublishedHistory } from './append-published-history.js';
import { runReplay } from './run-replay.js';

const published = (events: RecordedEvent[]) => events.filter((e) => e.type !== 'ZoneUpdated');

// The script is a process of its own: it needs a database server it can connect to.
(postgresServer ? describe : describe.skip)('npm run replay (contract §14)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let eventStore: EventStore;
  let history: RecordedEvent[];

  before(async () => {
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
    history = await appendPublishedHistory(eventStore, randomUUID());
  });
  after(() => database?.destroy());

  it('writes one envelope a line to stdout, after the position, in log order, with the original ids, and progress to stderr', async () => {
    const after = history[2]!.globalPosition;
    const run = await runReplay(['--after', String(after), '--to', 'stdout'], database.env);
    expect(run.code, run.stderr).to.equal(0);
    const envelopes = run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    envelopes.forEach(assertPublishedEvent);
    const expected = published(history.filter((e) => e.globalPosition > after));
    expect(envelopes.map((e) => [e.id, e.position])).to.deep.equal(expected.map((e) => [e.id, e.globalPosition]));
    expect(envelopes.map((e) => e.event)).to.deep.equal([
      'booking.create', 'resource.register', 'resource.update', 'booking.create', 'booking.create', 'zone.delete',
    ]);
    expect(run.stderr).to.match(/replay \[/).and.match(/sent 6 events/);
  });

  it('replays nothing and says so when --after is at or beyond the head', async () => {
    const head = history.at(-1)!.globalPosition;
    for (const after of [head, head + 1000]) {
      const run = await runReplay(['--after', String(after), '--to', 'stdout'], database.env);
      expect(run.code).to.equal(0);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.match(/nothing to replay/);
    }
  });

  it('refuses a missing position, an unknown target, and a target without its configuration', async () => {
    expect((await runReplay(['--to', 'stdout'], database.env)).stderr).to.match(/--after/);
    expect((await runReplay(['--after', '-1', '--to', 'stdout'], database.env)).code).to.equal(2);
    expect((await runReplay(['--after', '0', '--to', 'email'], database.env)).stderr).to.match(/--to must be/);
    const webhook = await runReplay(['--after', '0', '--to', 'webhook'], database.env);
    expect([webhook.code, webhook.stderr]).to.deep.equal([2, 'replay: --to webhook needs WEBHOOK_ENDPOINT and WEBHOOK_SECRET\n']);
  });

  it('posts every event to the webhook endpoint, signed, in log order, with the original ids', async () => {
    const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
    const receiver = await startWebhookReceiver(secret);
    try {
      let failedOnce = false;
      // The endpoint fails once: the replay tries again and keeps the order.
      receiver.answer = () => (failedOnce ? 204 : ((failedOnce = true), 503));
      const run = await runReplay(['--after', '0', '--to', 'webhook'], { ...database.env, WEBHOOK_ENDPOINT: receiver.url, WEBHOOK_SECRET: secret });
      expect(run.code, run.stderr).to.equal(0);
      expect(receiver.rejected).to.equal(0);
      expect(receiver.received.map((e) => e.id)).to.deep.equal(published(history).map((e) => e.id));
      expect(receiver.attempts[0]!.headers['webhook-id']).to.equal(history[0]!.id);
    } finally {
      await receiver.close();
    }
  });
});
