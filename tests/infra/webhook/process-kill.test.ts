import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createServices, type RunningServices } from '../../../src/create-services.js';
import { loadConfig } from '../../../src/infra/config.js';
import { createLogger } from '../../../src/infra/logger.js';
import { readCheckpoint } from '../../../src/infra/event-store/processor-checkpoint.js';
import { startWorkers, type RunningWorkers } from '../../../src/workers/start-workers.js';
import { seedZone } from '../../support/device-records.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { mintToken, platformKey } from '../../support/test-keys.js';
import { checkpointPlaced, fastWorkerOptions, waitFor } from '../../workers/worker-test-kit.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

const workspace = '1b7e0c55-6a43-4d0f-9a39-2f1f3c6a0b01';
const secret = `whsec_${randomBytes(24).toString('base64')}`;

describe('worker processes (PostgreSQL only: several processes share the database)', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let service: ServiceProcess | undefined;
  let services: RunningServices | undefined;
  let workers: RunningWorkers | undefined;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    receiver = await startWebhookReceiver(secret);
    await seedZone(database.db, workspace, 'zone-kill');
  });
  after(async () => {
    await workers?.stop();
    await services?.close();
    service?.child.kill('SIGKILL');
    await receiver?.close();
    await database?.destroy();
  });

  it('killed between commit and publish loses nothing: the next worker publishes what the dead one committed', async function () {
    this.timeout(60_000);
    // The endpoint is down while the first process lives, so nothing can leave before the kill.
    await receiver.close();
    const env = {
      ...database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_ENDPOINT: receiver.url,
      WEBHOOK_SECRET: secret,
      DATA_DIR: `/tmp/booking-kill-${process.pid}`,
    };
    service = await startServiceProcess(env);
    await checkpointPlaced(database.db, 'webhook-relay');
    const url = service.url;
    const headers = { authorization: `Bearer ${mintToken({ workspace, level: 'LV2' })}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as { id: string } };
    };
    expect((await post('/booking/v1/resources', { resourceType: 'zone', resourceId: 'zone-kill' })).status).to.equal(201);
    const booked = await post('/booking/v1/bookings', {
      resourceType: 'zone',
      resourceId: 'zone-kill',
      title: 'Survives',
      startTime: new Date(Date.now() + 86_400_000).toISOString(),
      endTime: new Date(Date.now() + 90_000_000).toISOString(),
    });
    expect(booked.status).to.equal(201);
    service.child.kill('SIGKILL');
    await service.exited;

    await receiver.reopen();
    services = await createServices(loadConfig(env), createLogger('silent'));
    workers = startWorkers(services, fastWorkerOptions);
    const delivered = await waitFor(() => receiver.received.find((e) => e.data.id === booked.body.id), { timeoutMs: 30_000, what: 'the booking.create of the killed process' });
    expect(delivered).to.include({ event: 'booking.create', workspace });
  });

  it('splits into --role api (no workers) and --role worker (no HTTP), and the worker stops gracefully', async function () {
    this.timeout(60_000);
    const env = {
      ...database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_ENDPOINT: receiver.url,
      WEBHOOK_SECRET: secret,
      DATA_DIR: `/tmp/booking-roles-${process.pid}`,
    };
    await workers?.stop();
    workers = undefined;
    // Webhooks were enabled before: what the api commits while no worker runs is not history.
    await readCheckpoint(database.db, 'webhook-relay', 'log-end');
    service = await startServiceProcess(env, ['--role', 'api']);
    const res = await fetch(`${service.url}/booking/v1/bookings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mintToken({ workspace, level: 'LV2' })}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceType: 'zone',
        resourceId: 'zone-kill',
        title: 'Split',
        startTime: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        endTime: new Date(Date.now() + 2 * 86_400_000 + 3_600_000).toISOString(),
      }),
    });
    expect(res.status).to.equal(201);
    const { id } = (await res.json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received.find((e) => e.data.id === id)).to.equal(undefined);

    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'worker'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    try {
      await waitFor(() => receiver.received.find((e) => e.data.id === id), { timeoutMs: 30_000, what: 'the delivery by the worker process' });
      expect(output).to.not.match(/listening on port/);
    } finally {
      worker.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
    expect(output).to.match(/shutting down/);
  });
});
