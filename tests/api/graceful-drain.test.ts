import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { postgresServer } from '../support/scratch-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { platformKey } from '../support/test-keys.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { bookingBody, registerZone } from './booking/booking-api.js';

type Answer = { status: number; body: any };

/** One request on a connection of its own (node:cluster hands each new connection to the next process). */
function request(url: string, method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${url}${path}`,
      {
        method,
        agent: false,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

const activeIn = (service: ServiceProcess, processor: string) => new RegExp(`"msg":"processor ${processor} active"`).test(service.output());

describe('graceful drain on SIGTERM (contract §19)', function () {
  this.timeout(240_000);
  let server: TestServer | undefined;

  before(async function () {
    if (!postgresServer) return this.skip();
    server = await startTestServer();
  });
  after(() => server?.stop());

  it('answers health 503 at once, finishes the request in flight (201), hands the processors to another node and exits 0', async () => {
    const env = {
      ...server!.database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      DATA_DIR: `/tmp/booking-test-${process.pid}-drain`,
      DB_POOL_SIZE: '5',
    };
    // The node to drain: two processes in a process group of their own, the whole group signalled.
    const node = await startServiceProcess({ ...env, WEB_CONCURRENCY: '2' }, [], [], { ownProcessGroup: true });
    let other: ServiceProcess | undefined;
    let release: (() => void) | undefined;
    try {
      await until(() => /ready on/.test(node.output()) && activeIn(node, 'device-deletions'), 'the node to run the processors', 60_000);
      other = await startServiceProcess({ ...env, WEB_CONCURRENCY: '1' });
      const standby = await until(async () => {
        const answer = await request(other!.url, 'GET', '/booking/v1/health');
        return answer.status === 200 ? answer : undefined;
      }, 'the other node to answer health', 30_000);
      expect(standby.body.info.workers.processors['device-deletions'].active).to.equal(false);

      // A create held in flight: a transaction of the test holds the resource's stream row.
      const resourceId = await registerZone(server!, 'zone-drain', { bookingPolicy: { maxAdvanceDays: 3650 } });
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const holding = new Promise<void>((resolve) => (locked = resolve));
      const transaction = server!.database.db.transaction().execute(async (trx) => {
        await sql`select 1 from streams where stream_id = ${`resource-${resourceId}`} for update`.execute(trx);
        locked();
        await released;
      });
      await holding;
      const start = new Date(Date.now() + 10 * 86_400_000);
      start.setUTCHours(9, 0, 0, 0);
      const body = bookingBody('zone-drain', start.toISOString(), new Date(start.getTime() + 3_600_000).toISOString());
      const inFlight = request(node.url, 'POST', '/booking/v1/bookings', { token: server!.token(), body });
      const waiting = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
      await until(async () => (await waiting.execute(server!.database.db)).rows[0]!.n === 1, 'the create to wait for the stream row', 10_000);

      process.kill(-node.child.pid!, 'SIGTERM');
      const signalledAt = Date.now();
      const drainingHealth = await until(async () => {
        const answer = await request(node.url, 'GET', '/booking/v1/health');
        return answer.status === 200 ? undefined : answer;
      }, 'health to answer 503', 1_000);
      expect(drainingHealth.status).to.equal(503);
      expect(drainingHealth.body.status).to.equal('error');
      expect(drainingHealth.body.error.shutdown.status).to.equal('down');

      // Past the load balancer's notice the node takes no new connection; the request in flight still waits.
      await sleep(2_500 - (Date.now() - signalledAt));
      expect(await request(node.url, 'GET', '/booking/v1/health').then(() => 'answered', () => 'refused')).to.equal('refused');
      release!();
      await transaction;
      const created = await inFlight;
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect((await server!.request('GET', `/booking/v1/bookings/${created.body.id}`)).status).to.equal(200);

      expect(await node.exited).to.equal(0);
      expect(node.output()).to.match(/shutting down: draining/);
      expect(node.output()).not.to.match(/cutting the requests still in flight/);
      // The processors were handed over: the other node runs them within 10 s of the signal.
      await until(() => activeIn(other!, 'device-deletions'), 'the other node to take the processors over', 10_000 - (Date.now() - signalledAt));
      const taken = await request(other.url, 'GET', '/booking/v1/health');
      expect(taken.body.info.workers.processors['device-deletions'].active).to.equal(true);
    } finally {
      release?.();
      if (node.child.exitCode === null) process.kill(-node.child.pid!, 'SIGKILL');
      await other?.stop();
    }
  });
});
