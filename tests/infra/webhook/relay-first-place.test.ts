import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { createServices, type RunningServices } from '../../../src/create-services.js';
import { loadConfig } from '../../../src/infra/config.js';
import { createLogger } from '../../../src/infra/logger.js';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { seedZone } from '../../support/device-records.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { mintToken, platformKey } from '../../support/test-keys.js';
import { fastWorkerOptions, waitFor } from '../../workers/worker-test-kit.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const workspace = '4c2f7a10-58d1-4b7e-9e0a-3d5b6c7e8f90';
const secret = `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The webhook relay's place in the log on a database where webhooks were never on: a write the
 * service answered before the relay's first round must be sent (late at most), never passed over.
 */
describe('the webhook relay placed before the first write (PostgreSQL: two processes share the database)', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let api: ServiceProcess | undefined;
  let services: RunningServices | undefined;
  let workers: RunningWorkers | undefined;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    receiver = await startWebhookReceiver(secret);
    await seedZone(database.db, workspace, 'zone-first');
  });
  after(async () => {
    await workers?.stop();
    await services?.close();
    await api?.stop();
    await receiver?.close();
    await database?.destroy();
  });

  it('sends a registration answered before any relay ran: queued once the relay runs, not lost behind its first place', async function () {
    this.timeout(60_000);
    const env = {
      ...database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_ENDPOINT: receiver.url,
      WEBHOOK_SECRET: secret,
      DATA_DIR: `/tmp/booking-first-place-${process.pid}`,
    };
    // An api-only process: no relay runs while it answers the first write.
    api = await startServiceProcess(env, ['--role', 'api']);
    const res = await fetch(`${api.url}/booking/v1/resources`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mintToken({ workspace, level: 'LV2' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resourceType: 'zone', resourceId: 'zone-first' }),
    });
    expect(res.status).to.equal(201);
    const { id } = (await res.json()) as { id: string };

    services = await createServices(loadConfig(env), createLogger('silent'));
    workers = startWorkers(services, fastWorkerOptions);
    // Late: queued (or already sent) once the relay has read past it. Lost: the relay's place is after it and nothing is queued.
    const relayPassedIt = async () => {
      const { rows } = await sql<{ passed: boolean }>`
        select (c.transaction_id, c.global_position) >= (e.transaction_id, e.global_position) as passed
        from processor_checkpoints c, events e
        where c.name = 'webhook-relay' and e.event_type = 'ResourceRegistered' and e.data ->> 'id' = ${id}`.execute(database.db);
      return rows[0]?.passed;
    };
    await waitFor(relayPassedIt, { what: 'the webhook relay to read past the registration' });
    const queued = await database.db.selectFrom('webhook_deliveries').select('event').where('event', '=', 'resource.register').execute();
    const sent = receiver.received.filter((e) => e.event === 'resource.register' && e.data.id === id);
    expect({ queued: queued.length, sent: sent.length }, 'the relay is past the registration and never queued it: lost').to.satisfy((n: { queued: number; sent: number }) => n.queued + n.sent >= 1);
    await waitFor(() => receiver.received.find((e) => e.event === 'resource.register' && e.data.id === id), { what: 'the resource.register of the first write' });
  });
});
