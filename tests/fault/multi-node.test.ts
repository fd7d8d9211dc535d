import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { sql } from 'kysely';
import { seedZone } from '../support/device-records.js';
import { haproxyAvailable, startHaproxy, type Haproxy } from '../support/haproxy.js';
import { createTestHost, namespacesAvailable, type TestHost } from '../support/network-namespaces.js';
import { startTcpRelay, type TcpRelay } from '../support/tcp-relay.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import { startWebhookReceiver, type WebhookReceiver } from '../infra/webhook/webhook-receiver.js';
import { waitFor } from '../workers/worker-test-kit.js';

/**
 * Contract §19 as an operator runs it: three nodes (all-in-one, one process each), each on a test
 * host of its own (a network namespace with its own address), reaching PostgreSQL through a relay
 * the test can cut, behind HAProxy with health checks. Under a steady load of creates through
 * HAProxy: a rolling restart (SIGTERM to each node in turn), kill -9 of the node holding the
 * processors, one node cut from PostgreSQL, and PostgreSQL restarted (CI only, where the server is
 * the suite's own). Checked: no overlap, no lost acknowledged write, the timer fired once, every
 * webhook delivered, processors resumed within 10 s, and no 5xx or reset during the rolling restart.
 */

const workspace = randomUUID();
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const zones = Array.from({ length: 8 }, (_, i) => `node-room-${i}`);
const hour = 3_600_000;
const dayStart = Math.ceil((Date.now() + 2 * 24 * hour) / (24 * hour)) * 24 * hour;
const nodePort = 3000;
const run = promisify(execFile);

type Node = { name: string; host: TestHost; relay: TcpRelay; child?: ChildProcess; output: string; exited?: Promise<number | null> };

const slot = (k: number) => {
  const start = dayStart + (k % 2000) * 15 * 60_000;
  return { startTime: new Date(start).toISOString(), endTime: new Date(start + 15 * 60_000).toISOString() };
};

(process.env.DB_HOST ? describe : describe.skip)('several nodes behind HAProxy (contract §19; needs root, iproute2 and haproxy)', function () {
  this.timeout(300_000);
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let haproxy: Haproxy;
  const nodes: Node[] = [];
  let env: Record<string, string>;

  const startNode = async (node: Node) => {
    node.output = '';
    const child = node.host.spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      ...env,
      DB_HOST: node.host.gateway,
      DB_PORT: String(node.relay.port),
      WEBHOOK_ENDPOINT: `http://${node.host.gateway}:${new URL(receiver.url).port}/hooks`,
      DATA_DIR: `/tmp/booking-nodes-${process.pid}-${node.name}`,
    });
    const keep = (chunk: Buffer) => (node.output = (node.output + chunk.toString()).slice(-32_000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    node.child = child;
    node.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await waitFor(() => health(node).then((h) => h.status === 200), { timeoutMs: 90_000, what: `${node.name} to answer its health check` }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${node.output}`);
    });
  };
  const health = (node: Node) =>
    fetch(`http://${node.host.address}:${nodePort}/booking/v1/health`, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => ({ status: r.status, body: (await r.json().catch(() => ({}))) as { info?: { workers?: { processors?: Record<string, { active: boolean }> } } } }),
      () => ({ status: 0, body: {} as { info?: { workers?: { processors?: Record<string, { active: boolean }> } } } }),
    );
  /** The processors each node runs actively now. */
  const activeOn = async (node: Node) => Object.entries((await health(node)).body.info?.workers?.processors ?? {}).filter(([, p]) => p.active).map(([name]) => name);

  before(async function () {
    if (!(await namespacesAvailable()) || !haproxyAvailable()) {
      if (process.env.CI) throw new Error('CI needs root, iproute2 and haproxy for the multi-node run');
      this.skip();
    }
    this.timeout(240_000);
    database = await createTestDatabase();
    for (const zone of zones) await seedZone(database.db, workspace, zone);
    receiver = await startWebhookReceiver(secret, { host: '0.0.0.0' });
    env = {
      PATH: process.env.PATH ?? '',
      ...database.env,
      PORT: String(nodePort),
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      WEBHOOK_SECRET: secret,
      WEB_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_SECONDS: '10',
      // Sixteen clients on one token send far more than a minute's default allowance; limits are not what this run is about.
      RATE_LIMIT_PER_MINUTE: '0',
    };
    for (const index of [1, 2, 3]) {
      const host = await createTestHost(index);
      const relay = await startTcpRelay({ host: database.config!.host, port: database.config!.port }, 0, host.gateway);
      nodes.push({ name: `node${index}`, host, relay, output: '' });
    }
    await Promise.all(nodes.map(startNode));
    haproxy = await startHaproxy(nodes.map((n) => ({ name: n.name, address: n.host.address, port: nodePort })));
  });

  after(async function () {
    this.timeout(60_000);
    for (const node of nodes) {
      if (node.child && node.child.exitCode === null) {
        node.child.kill('SIGKILL');
        await node.exited;
      }
      await node.relay.close();
      await node.host.remove();
    }
    await haproxy?.stop();
    await receiver?.close();
    await database?.destroy();
  });

  it('serves through rolling restarts, a killed processor node, a node cut from PostgreSQL and a PostgreSQL restart, losing nothing', async () => {
    const token = mintToken({ workspace, level: 'LV2' });
    const call = async (method: string, path: string, body?: unknown) => {
      try {
        const res = await fetch(`${haproxy.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : null };
      } catch (error) {
        return { status: 0, body: String((error as { cause?: unknown }).cause ?? error) };
      }
    };
    const timerZone = zones[0]!;
    for (const zone of zones) {
      const policy = zone === timerZone ? { bookingPolicy: { autoConfirm: false } } : {};
      expect((await call('POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: zone, ...policy })).status).to.equal(201);
    }

    const acknowledged = new Map<string, string>();
    let phase = 'warm-up';
    const outcomes = new Map<string, number>();
    const count = (what: string) => outcomes.set(`${phase}: ${what}`, (outcomes.get(`${phase}: ${what}`) ?? 0) + 1);
    let k = 0;
    let loadRunning = true;
    const client = async () => {
      while (loadRunning) {
        const res = await call('POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: zones[1 + (k % (zones.length - 1))], title: 'Nodes', ...slot(k++) });
        count(res.status === 0 ? `reset (${res.body})` : String(res.status));
        if (res.status === 201) acknowledged.set(res.body.id, res.body.resourceId);
        if (res.status === 503 || res.status === 0) await sleep(100);
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, client));
    await sleep(3_000);

    // Rolling restart: each node drained by SIGTERM, restarted, healthy again before the next.
    phase = 'rolling restart';
    const exitCodes: (number | null)[] = [];
    for (const node of nodes) {
      node.child!.kill('SIGTERM');
      exitCodes.push(await node.exited!);
      await startNode(node);
      await sleep(1_500);
    }

    // A pending booking whose expiry timer falls due while the processor node is dead.
    phase = 'kill -9';
    const timerStart = new Date(Date.now() + 4_000);
    const pending = await call('POST', '/booking/v1/bookings', { resourceType: 'zone', resourceId: timerZone, title: 'Expires', startTime: timerStart.toISOString(), endTime: new Date(timerStart.getTime() + hour).toISOString() });
    expect(pending.status, JSON.stringify(pending.body)).to.equal(201);
    const holder = (await Promise.all(nodes.map(async (n) => ({ n, active: await activeOn(n) })))).sort((a, b) => b.active.length - a.active.length)[0]!;
    expect(holder.active.length, 'a node runs the processors').to.be.greaterThan(0);
    const killedAt = Date.now();
    holder.n.child!.kill('SIGKILL');
    await holder.n.exited;
    const others = nodes.filter((n) => n !== holder.n);
    await waitFor(async () => new Set((await Promise.all(others.map(activeOn))).flat()).size >= holder.active.length, { timeoutMs: 30_000, what: 'the processors to move' });
    const takeoverMs = Date.now() - killedAt;
    await startNode(holder.n);

    // One node cut from PostgreSQL while the others go on.
    phase = 'one node cut from PostgreSQL';
    await nodes[1]!.relay.cutAndRefuse();
    await sleep(4_000);
    await nodes[1]!.relay.accept();
    await waitFor(() => health(nodes[1]!).then((h) => h.status === 200), { timeoutMs: 30_000, what: 'the cut node to recover' });

    let restartedPostgres = false;
    if (process.env.CI) {
      phase = 'PostgreSQL restarted';
      const cluster = (await run('ls', ['/etc/postgresql'])).stdout.trim().split('\n')[0]!;
      await run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster, 'main', 'restart']);
      restartedPostgres = true;
      await Promise.all(nodes.map((n) => waitFor(() => health(n).then((h) => h.status === 200), { timeoutMs: 60_000, what: `${n.name} after the restart` })));
    }
    phase = 'cool-down';
    await sleep(2_000);
    loadRunning = false;
    await load;

    // The check.
    const { rows: overlaps } = await sql<{ a: string }>`
      select a.id as a from bookings a join bookings b
        on a.bookable_resource_id = b.bookable_resource_id and a.id < b.id
       and booking_occupied_range(a.start_time, a.end_time, a.buffer_before_minutes, a.buffer_after_minutes)
        && booking_occupied_range(b.start_time, b.end_time, b.buffer_before_minutes, b.buffer_after_minutes)
      where a.status in ('pending', 'confirmed') and b.status in ('pending', 'confirmed') and not a.is_series_parent and not b.is_series_parent`.execute(database.db);
    const stored = new Set((await database.db.selectFrom('bookings').select('id').execute()).map((r) => r.id));
    const lost = [...acknowledged.keys()].filter((id) => !stored.has(id));
    const expiry = await waitFor(
      async () => {
        const { rows } = await sql<{ n: string }>`
          select count(*) as n from events where event_type = 'BookingCancelled' and data->'booking'->>'id' = ${pending.body.id as string}`.execute(database.db);
        return Number(rows[0]!.n) > 0 ? Number(rows[0]!.n) : undefined;
      },
      { timeoutMs: 30_000, what: 'the pending booking to expire' },
    );
    const { rows: created } = await sql<{ id: string }>`select event_id as id from events where event_type = 'BookingCreated'`.execute(database.db);
    await waitFor(() => created.every((e) => receiver.received.some((r) => r.id === e.id)), { timeoutMs: 60_000, what: `webhooks of ${created.length} creates` });

    const report = { outcomes: Object.fromEntries([...outcomes].sort()), acknowledged: acknowledged.size, exitCodes, takeoverMs, restartedPostgres, overlaps: overlaps.length, lost: lost.length, expiries: expiry };
    console.log(JSON.stringify(report, null, 2));
    expect(overlaps).to.deep.equal([]);
    expect(lost).to.deep.equal([]);
    expect(expiry, 'the timer fires once').to.equal(1);
    expect(exitCodes, 'a drained node exits 0').to.deep.equal([0, 0, 0]);
    expect(takeoverMs, 'processors resumed on another node').to.be.at.most(10_000);
    const rolling = [...outcomes.keys()].filter((key) => key.startsWith('rolling restart:') && !/: (201|409|422)$/.test(key));
    expect(rolling, 'no 5xx and no reset during the rolling restart').to.deep.equal([]);
    expect([...outcomes.keys()].filter((key) => /: 500$/.test(key))).to.deep.equal([]);
    expect(acknowledged.size).to.be.greaterThan(100);
  });
});
