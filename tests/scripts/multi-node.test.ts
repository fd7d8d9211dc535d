import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { haproxyAvailable } from '../../scripts/haproxy.js';
import { callService } from '../support/call-service.js';
import { seedZone } from '../support/device-records.js';
import { freePort } from '../support/free-port.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { mintToken, platformKey } from '../support/test-keys.js';
import { waitFor } from '../workers/worker-test-kit.js';
import { davRequest, propfindBody, syncBody } from '../api/dav/dav-requests.js';

const workspace = randomUUID();
const day = 86_400_000;

/** `npm run multi-node`: three nodes on loopback ports behind Debian's haproxy, as people run it. */
(process.env.DB_HOST ? describe : describe.skip)('npm run multi-node (needs haproxy)', function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let script: ChildProcess | undefined;

  before(async function () {
    if (!haproxyAvailable()) {
      if (process.env.CI) throw new Error('CI needs haproxy for npm run multi-node');
      this.skip();
    }
    database = await createTestDatabase();
    await seedZone(database.db, workspace, 'multi-node-room');
  });

  after(async () => {
    if (script && script.exitCode === null) script.kill('SIGKILL');
    await database?.destroy();
  });

  it('serves bookings and calendar clients (§25) through HAProxy from every node and drains them all on Ctrl-C, exiting 0', async () => {
    const port = await freePort();
    const nodePorts = [await freePort(), await freePort(), await freePort()];
    script = spawn(process.execPath, ['--import', 'tsx', 'scripts/multi-node.ts', '--port', String(port), '--node-ports', nodePorts.join(',')], {
      env: {
        PATH: process.env.PATH,
        ...database.env,
        APP_ENV: 'production',
        PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
        DATA_DIR: `/tmp/booking-multi-node-${process.pid}`,
        SHUTDOWN_GRACE_SECONDS: '5',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    script.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    script.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => script!.once('exit', (code) => resolve(code)));
    await waitFor(() => /Ctrl-C drains/.test(stdout) || script!.exitCode !== null, { timeoutMs: 180_000, what: 'the nodes and HAProxy to start' });
    expect(script.exitCode, `${stdout}\n${stderr}`).to.equal(null);
    const haproxyUrl = `http://127.0.0.1:${port}`;
    expect(stdout).to.include(`${haproxyUrl}  HAProxy`);
    for (const [i, nodePort] of nodePorts.entries()) expect(stdout).to.match(new RegExp(`http://127\\.0\\.0\\.1:${nodePort}  node${i + 1} \\(pid \\d+\\)`));

    const token = mintToken({ workspace, level: 'LV2' });
    const resource = await callService(haproxyUrl, token, 'POST', '/booking/v1/resources', { resourceType: 'zone', resourceId: 'multi-node-room' });
    expect(resource.status, JSON.stringify(resource.body)).to.equal(201);
    const base = Math.ceil((Date.now() + 2 * day) / day) * day;
    const created = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) =>
        callService(haproxyUrl, token, 'POST', '/booking/v1/bookings', {
          resourceType: 'zone',
          resourceId: 'multi-node-room',
          title: `Through HAProxy ${i}`,
          startTime: new Date(base + i * 3_600_000).toISOString(),
          endTime: new Date(base + (i + 1) * 3_600_000).toISOString(),
        }),
      ),
    );
    expect(created.map((c) => c.status)).to.deep.equal([201, 201, 201, 201, 201, 201]);
    // Every node reads what was booked through any of them: one database behind them all.
    for (const nodePort of nodePorts) {
      const read = await callService(`http://127.0.0.1:${nodePort}`, token, 'GET', `/booking/v1/bookings/${created[5]!.body.id}`);
      expect(read.status, `node on ${nodePort}`).to.equal(200);
    }

    await calendarClientThroughHaproxy(haproxyUrl, nodePorts, token, base);

    script.kill('SIGINT');
    expect(await exited, `${stdout}\n${stderr}`).to.equal(0);
    for (const i of [1, 2, 3]) expect(stdout).to.include(`node${i} exited with 0`);
    for (const p of [port, ...nodePorts]) {
      const answer = await fetch(`http://127.0.0.1:${p}/booking/v1/health`).then((r) => r.status, () => 'refused');
      expect(answer, `port ${p} after the stop`).to.equal('refused');
    }
  });
});

/**
 * Contract §25 behind HAProxy: a calendar client signs in with a calendar password through the
 * proxy, keeps a room in sync while bookings are made on each node directly (every node's change
 * shows in the next sync, whichever node answers it), and the password deleted on one node
 * answers 401 on every node at once.
 */
async function calendarClientThroughHaproxy(haproxyUrl: string, nodePorts: number[], token: string, base: number): Promise<void> {
  const password = await callService(haproxyUrl, token, 'POST', '/booking/v1/calendar-passwords', { label: 'through HAProxy' });
  expect(password.status, JSON.stringify(password.body)).to.equal(201);
  const basic = `Basic ${Buffer.from(`${password.body.username}:${password.body.password}`).toString('base64')}`;
  const dav = (method: string, path: string, options: { body?: string; depth?: string } = {}, url = haproxyUrl) =>
    davRequest({ url, token: () => token }, method, path, { ...options, token: null, headers: { authorization: basic } });

  const options = await fetch(`${haproxyUrl}/dav/`, { method: 'OPTIONS' });
  expect([options.status, options.headers.get('dav')]).to.deep.equal([200, '1, 3, access-control, calendar-access, calendar-auto-schedule']);
  const wellKnown = await fetch(`${haproxyUrl}/.well-known/caldav`, { method: 'PROPFIND', redirect: 'manual' });
  expect([wellKnown.status, wellKnown.headers.get('location')]).to.deep.equal([301, '/dav/']);
  const root = await dav('PROPFIND', '/dav/', { body: propfindBody('<d:current-user-principal/>'), depth: '0' });
  expect(root.status, root.text).to.equal(207);

  const rooms = await dav('PROPFIND', '/dav/principals/resources/', { body: propfindBody('<d:displayname/>'), depth: '1' });
  const room = rooms.members.find((m) => m.href.endsWith('/') && m.href !== '/dav/principals/resources/')!.href.split('/').at(-2)!;
  const calendar = `/dav/calendars/resources/${room}/bookings/`;
  const first = await dav('REPORT', calendar, { body: syncBody() });
  expect(first.status, first.text).to.equal(207);

  const made = await Promise.all(
    nodePorts.map((nodePort, i) =>
      callService(`http://127.0.0.1:${nodePort}`, token, 'POST', '/booking/v1/bookings', {
        resourceType: 'zone',
        resourceId: 'multi-node-room',
        title: `On node ${i + 1}`,
        startTime: new Date(base + (10 + i) * 3_600_000).toISOString(),
        endTime: new Date(base + (11 + i) * 3_600_000).toISOString(),
      }),
    ),
  );
  expect(made.map((m) => m.status)).to.deep.equal([201, 201, 201]);
  const next = await dav('REPORT', calendar, { body: syncBody(first.syncToken) });
  expect(next.members.map((m) => m.href).sort()).to.deep.equal(made.map((m) => `${calendar}${m.body.id}.ics`).sort());
  for (const nodePort of nodePorts) {
    const again = await dav('REPORT', calendar, { body: syncBody(first.syncToken) }, `http://127.0.0.1:${nodePort}`);
    expect(again.members.length, `sync on node ${nodePort}`).to.equal(3);
  }

  const deleted = await callService(`http://127.0.0.1:${nodePorts[0]}`, token, 'DELETE', `/booking/v1/calendar-passwords/${password.body.id}`);
  expect(deleted.status).to.equal(204);
  for (const url of [haproxyUrl, ...nodePorts.map((p) => `http://127.0.0.1:${p}`)]) {
    expect((await dav('PROPFIND', '/dav/', { body: propfindBody('<d:current-user-principal/>'), depth: '0' }, url)).status, url).to.equal(401);
  }
}
