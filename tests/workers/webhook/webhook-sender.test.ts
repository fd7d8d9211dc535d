import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { createLogger } from '../../../src/infra/logger.js';
import { queueWebhookDeliveries, releaseLostClaim } from '../../../src/workers/webhook/webhook-delivery-queue.js';
import { commitListenerName, startCommitListener, type CommitListener } from '../../../src/workers/commit-listener.js';
import { toEventEnvelope, type EventEnvelope } from '../../../src/domain/event-envelope.js';
import type { RunningLoop } from '../../../src/workers/supervised-loop.js';
import { startWebhookSender } from '../../../src/workers/webhook/start-webhook-sender.js';
import { workerOptionsFor, type WorkerOptions } from '../../../src/workers/worker-options.js';
import type { Config } from '../../../src/infra/config.js';
import { createDatabase } from '../../../src/infra/db/database.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../infra/webhook/webhook-receiver.js';
import { startTcpRelay } from '../../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { bookingCreated, sampleBooking } from '../booking-event-fixture.js';
import { fastWorkerOptions, waitFor } from '../worker-test-kit.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const silent = createLogger('silent');
// Far longer than any wait below: what arrives was not found by polling.
const noPolling = { ...fastWorkerOptions, pollIntervalMs: 60_000 };

describe('webhook sender', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let sender: RunningLoop | undefined;
  let listener: CommitListener | undefined;
  const workspace = randomUUID();

  const queue = async (resourceId: string, n: number) => {
    // A real booking.create (the receiver checks every body against the AsyncAPI schemas), numbered in data.
    const created = toEventEnvelope({ id: randomUUID(), globalPosition: n, ...bookingCreated(sampleBooking({ resourceId, workspace })) })!;
    const envelope: EventEnvelope = { ...created, data: { ...created.data, n } };
    await queueWebhookDeliveries(database.db, [{ envelope, orderingKey: `resource-${resourceId}`, resourceId, now: new Date() }]);
  };
  const start = (options: Partial<WorkerOptions> = noPolling) => {
    sender = startWebhookSender({ db: database.db, logger: silent }, { endpoint: receiver.url, secret }, workerOptionsFor({ reconcileIntervalSeconds: 60 } as Config, options));
  };
  const queueEmpty = async () => (await database.db.selectFrom('webhook_deliveries').select('id').execute()).length === 0;
  const received = (resourceId: string) => receiver.received.filter((e) => e.data.resourceId === resourceId).map((e) => e.data.n);

  beforeEach(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver(secret);
  });
  afterEach(async () => {
    await listener?.stop();
    await sender?.stop();
    listener = undefined;
    sender = undefined;
    await receiver?.close();
    await database?.destroy();
  });

  it("sends a resource's next delivery as soon as the previous one is acknowledged, one at a time, in queue order", async () => {
    for (let n = 1; n <= 5; n++) await queue('zone-a', n);
    await queue('zone-b', 1);
    const inFlight = new Map<string, number>();
    let overlapped = false;
    receiver.answer = async (envelope) => {
      const resource = String(envelope.data.resourceId);
      inFlight.set(resource, (inFlight.get(resource) ?? 0) + 1);
      if (inFlight.get(resource)! > 1) overlapped = true;
      await sleep(20);
      inFlight.set(resource, inFlight.get(resource)! - 1);
      return 204;
    };
    start();
    await waitFor(queueEmpty, { what: 'every queued delivery' });
    expect(received('zone-a')).to.deep.equal([1, 2, 3, 4, 5]);
    expect(received('zone-b')).to.deep.equal([1]);
    expect(overlapped).to.equal(false);
  });

  it("holds a resource's later deliveries while its head waits for a retry", async () => {
    await queue('zone-a', 1);
    await queue('zone-a', 2);
    receiver.answer = (envelope, attempt) => (envelope.data.n === 1 && attempt === 1 ? 503 : 204);
    // A retry falling due is found by polling.
    start({ ...fastWorkerOptions });
    await waitFor(() => received('zone-a').length === 2, { what: 'both deliveries after the retry' });
    expect(received('zone-a')).to.deep.equal([1, 2]);
    expect(receiver.attempts.map((a) => [a.envelope.data.n, a.status])).to.deep.equal([
      [1, 503],
      [1, 204],
      [2, 204],
    ]);
  });

  describe('woken on commit (PostgreSQL: LISTEN/NOTIFY)', () => {
    beforeEach(function () {
      if (!database.isServer) this.skip();
    });

    const listen = () => {
      listener = startCommitListener(database.config!, silent, { webhook_deliveries_queued: [() => sender!.wake()] }, { initialMs: 20, maxMs: 100 });
    };
    const listening = () =>
      waitFor(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = ${commitListenerName} and datname = current_database() and query ilike 'listen%'`.execute(database.db);
        return rows[0]!.n === 1;
      }, { what: 'the listening connection' });

    it('sends a delivery queued after the sender went idle', async () => {
      start();
      listen();
      await listening();
      await queue('zone-a', 1);
      await waitFor(() => received('zone-a').length === 1, { what: 'the delivery queued while idle' });
    });

    it('listens again after its connection was cut, and misses nothing meanwhile', async () => {
      start();
      listen();
      await listening();
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${commitListenerName} and datname = current_database()`.execute(database.db);
      await queue('zone-a', 1);
      await waitFor(() => received('zone-a').length === 1, { what: 'the delivery queued while the listener was cut off' });
      await listening();
      await queue('zone-a', 2);
      await waitFor(() => received('zone-a').length === 2, { what: 'the delivery queued after the listener came back' });
    });
  });

  describe('after its database connection was lost (PostgreSQL: a relay of the test cuts it)', () => {
    beforeEach(function () {
      if (!database.isServer) this.skip();
    });

    it("finishes a delivery acknowledged during the outage as soon as the database is back, and goes on with the resource's next one, not after the lease", async () => {
      const relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port });
      const throughRelay = createDatabase({ ...database.config!, kind: 'postgres', port: relay.port, poolSize: 4 });
      try {
        await queue('zone-a', 1);
        await queue('zone-a', 2);
        let cut: (() => void) | undefined;
        const outageStarted = new Promise<void>((resolve) => (cut = resolve));
        receiver.answer = async (envelope) => {
          if (envelope.data.n === 1) {
            // The database goes away while the first POST is in flight: its bookkeeping fails.
            await relay.cutAndRefuse();
            cut!();
            await sleep(300);
          }
          return 204;
        };
        // A lease far longer than the test: what is sent again was not freed by its lease running out.
        sender = startWebhookSender(
          { db: throughRelay, logger: silent },
          { endpoint: receiver.url, secret },
          workerOptionsFor({ reconcileIntervalSeconds: 60 } as Config, { ...fastWorkerOptions, webhookTimeoutMs: 60_000 }),
        );
        await outageStarted;
        await sleep(1_000);
        expect(received('zone-a')).to.deep.equal([1]);
        const back = Date.now();
        await relay.accept();
        await waitFor(() => received('zone-a').length === 2, { timeoutMs: 5_000, what: "the resource's next delivery after the outage" });
        expect(Date.now() - back).to.be.below(3_000);
        expect(received('zone-a')).to.deep.equal([1, 2]);
        await waitFor(queueEmpty, { what: 'the queue to empty' });
      } finally {
        await sender?.stop();
        sender = undefined;
        await throughRelay.destroy();
        await relay.close();
      }
    });

    it('gives back the deliveries of a claim whose answer was lost with the connection, without waiting for their lease', async () => {
      await queue('zone-a', 1);
      await queue('zone-b', 1);
      // A claim that committed, its answer lost: rows leased by a claim id no lane holds.
      const lostClaimId = randomUUID();
      await sql`update webhook_deliveries set claimed_until = now() + interval '1 hour', claim_id = ${lostClaimId}`.execute(database.db);
      await releaseLostClaim(database.db, lostClaimId);
      start();
      sender!.wake();
      await waitFor(queueEmpty, { timeoutMs: 5_000, what: 'the released deliveries' });
      expect(received('zone-a')).to.deep.equal([1]);
      expect(received('zone-b')).to.deep.equal([1]);
    });
  });
});
