import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { postgresServer } from '../support/scratch-database.js';
import { startServiceProcess } from '../support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pids that logged `listening on port` (JSON log lines carry the pid). */
const listeningPids = (output: string) => [...output.matchAll(/\{[^\n]*"pid":(\d+)[^\n]*listening on port/g)].map((m) => Number(m[1]));

async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

type Health = { status: number; body: any };

/** GET /booking/v1/health on a connection of its own: node:cluster hands each new connection to the next process in turn. */
function healthOnNewConnection(url: string): Promise<Health> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/booking/v1/health`, { agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      })
      .on('error', reject);
  });
}

/** The pids that logged `processor <name> active`, by processor. */
const activePids = (output: string) => {
  const byProcessor = new Map<string, Set<number>>();
  for (const [, pid, name] of output.matchAll(/\{[^\n]*"pid":(\d+)[^\n]*"msg":"(?:processor )?([\w-]+) active"/g)) {
    byProcessor.set(name!, (byProcessor.get(name!) ?? new Set()).add(Number(pid)));
  }
  return byProcessor;
};

describe('the service process', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'booking-lifecycle-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts with zero configuration in development mode and stops cleanly on SIGTERM', async function () {
    this.timeout(240_000);
    const service = await startServiceProcess({ DATA_DIR: dataDir });
    const health = await fetch(`${service.url}/booking/v1/health`);
    expect(health.status).to.equal(200);
    expect(health.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const echoed = await fetch(`${service.url}/booking/v1/health`, { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).to.equal('trace-123');
    await until(() => /ready on http:\/\/localhost:\d+/.test(service.output()), 'the ready line');
    expect(service.output()).to.match(/development mode/);
    expect(service.output()).to.match(/ready on http:\/\/localhost:\d+ in [\d.]+ s — docs: http:\/\/localhost:\d+\/booking\/docs/);
    expect(service.output()).to.match(/embedded database: one process/);
    service.child.kill('SIGTERM');
    expect(await service.exited).to.equal(0);
    expect(service.output()).to.match(/shutting down/);
  });

  it('`npm start` stops the server when npm gets SIGTERM', async function () {
    this.timeout(240_000);
    const child = spawn('npm', ['start', '--silent'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let server: number | undefined;
    try {
      await until(() => /listening on port \d+/.test(output), 'the server to listen');
      const port = Number(/listening on port (\d+)/.exec(output)![1]);
      server = listeningPids(output)[0];
      expect((await fetch(`http://127.0.0.1:${port}/booking/v1/health`)).status).to.equal(200);
      child.kill('SIGTERM');
      await exited;
      await until(() => !alive(server!), 'the server process to exit', 20_000);
      expect(await fetch(`http://127.0.0.1:${port}/booking/v1/health`).then(() => 'answered', () => 'refused')).to.equal('refused');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      if (server && alive(server)) process.kill(server, 'SIGKILL');
    }
  });

  describe('on PostgreSQL', () => {
    let database: TestDatabase;
    before(async function () {
      if (!postgresServer) return this.skip();
      database = await createTestDatabase();
    });
    after(() => database?.destroy());

    it('serves HTTP from WEB_CONCURRENCY processes and stops every one on SIGTERM', async function () {
      this.timeout(240_000);
      const service = await startServiceProcess({ DATA_DIR: dataDir, ...database.env, WEB_CONCURRENCY: '2' });
      let pids: number[] = [];
      try {
        await until(() => listeningPids(service.output()).length === 2 && /ready on/.test(service.output()), 'two HTTP processes');
        pids = listeningPids(service.output());
        expect(new Set(pids).size).to.equal(2);
        expect(pids).not.to.include(service.child.pid);
        for (let i = 0; i < 6; i++) expect((await fetch(`${service.url}/booking/v1/health`)).status).to.equal(200);
        service.child.kill('SIGTERM');
        expect(await service.exited).to.equal(0);
        for (const pid of pids) expect(alive(pid), `process ${pid}`).to.equal(false);
        expect(service.output()).to.match(/shutting down every process/);
      } finally {
        // A failed assertion must not leave the processes behind.
        await service.stop();
        for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
      }
    });

    it('answers health with the workers part from every process, each processor active in exactly one of them', async function () {
      this.timeout(240_000);
      const service = await startServiceProcess({ DATA_DIR: dataDir, ...database.env, WEB_CONCURRENCY: '2' });
      let pids: number[] = [];
      try {
        await until(() => listeningPids(service.output()).length === 2 && /ready on/.test(service.output()), 'two HTTP processes');
        pids = listeningPids(service.output());
        // Each process answers in turn; wait until some process runs every processor it reports.
        const first = await healthOnNewConnection(service.url);
        const names = Object.keys(first.body.info.workers?.processors ?? {}).sort();
        expect(names).to.include('device-deletions');
        await until(() => names.every((name) => activePids(service.output()).has(name)), 'every processor active in some process', 30_000);

        const answers = await Promise.all(Array.from({ length: 40 }, () => healthOnNewConnection(service.url)));
        for (const answer of answers) {
          expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
          expect(answer.body.info.workers.status).to.equal('up');
          expect(Object.keys(answer.body.info.workers.processors).sort()).to.deep.equal(names);
          for (const name of names) expect(answer.body.info.workers.processors[name]).to.have.all.keys('position', 'lagEvents', 'active');
        }
        // Each new connection goes to the next process: the active one answers true, the one standing by false.
        for (const name of names) {
          const active = answers.map((answer) => answer.body.info.workers.processors[name].active as boolean);
          expect(active, name).to.include(true).and.to.include(false);
          expect(activePids(service.output()).get(name)?.size, name).to.equal(1);
        }
      } finally {
        await service.stop();
        for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
      }
    });
  });
});
