import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { dayAhead } from '../../scripts/seed-days.js';
import { seedBaseUrl } from '../../scripts/seed-url.js';
import { createScratchDatabase, postgresServer, type ScratchDatabase } from '../support/scratch-database.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { runScript } from '../support/run-script.js';

describe('seed days', () => {
  const aWeek = Array.from({ length: 7 }, (_, i) => Temporal.PlainDate.from('2026-11-16').add({ days: i }));

  it('puts the stand-up series on its next Monday, Wednesday or Friday, whatever the day today', () => {
    for (const today of aWeek) {
      const start = dayAhead(today, 1, [1, 3, 5]);
      expect([1, 3, 5], `${today}`).to.include(start.dayOfWeek);
      expect(Temporal.PlainDate.compare(start, today), `${today}`).to.equal(1);
      expect(start.since(today).days, `${today}`).to.be.at.most(3);
    }
  });

  it('counts working days only for the bookings', () => {
    expect(dayAhead(Temporal.PlainDate.from('2026-11-20'), 1).toString()).to.equal('2026-11-23');
    expect(dayAhead(Temporal.PlainDate.from('2026-11-22'), 3).toString()).to.equal('2026-11-25');
  });
});

describe('the seed’s service address', () => {
  it('is --url, else SEED_URL, else localhost on the service’s own PORT', () => {
    expect(seedBaseUrl('http://flag:1/', 'http://env:2', 4000)).to.equal('http://flag:1');
    expect(seedBaseUrl(undefined, 'http://env:2/', 4000)).to.equal('http://env:2');
    expect(seedBaseUrl(undefined, '', 4000)).to.equal('http://localhost:4000');
    expect(seedBaseUrl(undefined, undefined, 3000)).to.equal('http://localhost:3000');
  });

  it('is unknown when PORT is 0 and nothing else names it', () => {
    expect(seedBaseUrl(undefined, undefined, 0)).to.equal(undefined);
    expect(seedBaseUrl('http://flag:1', undefined, 0)).to.equal('http://flag:1');
  });

  it('PORT=0 without --url ends the seed with a message, before any request', async () => {
    const run = await runScript('seed', [], { PORT: '0', DATA_DIR: path.join(tmpdir(), 'seed-port-zero') });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.include('PORT is 0');
  });
});

// The seed talks to a running service over HTTP, as a user does after `npm start`.
(postgresServer ? describe : describe.skip)('npm run seed', function () {
  this.timeout(120_000);
  let database: ScratchDatabase;
  let dataDir: string;
  let service: ServiceProcess;

  before(async () => {
    database = await createScratchDatabase('seed');
    dataDir = await mkdtemp(path.join(tmpdir(), 'seed-'));
    service = await startServiceProcess({ ...database.env, APP_ENV: 'development', DATA_DIR: dataDir });
  });
  after(async () => {
    await service?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const seed = () => runScript('seed', ['--url', service.url], { DATA_DIR: dataDir });
  const exported = (stdout: string, name: string) => new RegExp(`^ *export (?:\\S+ )*${name}=(\\S+)`, 'm').exec(stdout)?.[1];

  it('fills a demo workspace, prints tokens and requests that answer, and adds nothing the second time', async () => {
    const first = await seed();
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stderr).to.include('series "Demo: stand-up" (12 occurrences)');
    expect(first.stderr).to.match(/waitlist entry \S+ \(position 1 behind the quarterly review\)/);
    expect(first.stderr).to.match(/blackout "Holiday" on \S+ \(whole workspace; 0 bookings hit, none cancelled\)/);
    const member = exported(first.stdout, 'MEMBER_TOKEN');
    expect(member).to.be.a('string');

    const tries = [...first.stdout.matchAll(/curl -s -H "authorization: Bearer \$(\w+)" '([^']+)'/g)];
    expect(tries).to.have.length(9);
    for (const [, tokenName, url] of tries) {
      const answer = await fetch(url!, { headers: { authorization: `Bearer ${exported(first.stdout, tokenName!)}` } });
      expect(answer.status, url).to.equal(200);
      // A page (bookings, waitlist, approvals), the slots, the free resources, a schedule, or a bare list.
      const body = (await answer.json()) as unknown[] | { data?: unknown[]; slots?: unknown[]; resources?: unknown[]; bookings?: unknown[]; usage?: { usedUnits: number }[] };
      expect((Array.isArray(body) ? body : (body.data ?? body.slots ?? body.resources ?? body.bookings))!.length, url).to.be.greaterThan(0);
      // The desk area's day: one desk from 8, the team's twelve from 9, the one desk leaving at 12 (contract §21).
      if (!Array.isArray(body) && body.usage) expect(body.usage.map((run) => run.usedUnits), url).to.deep.equal([1, 13, 12]);
    }

    const adminGet = (stdout: string, route: string) =>
      fetch(`${service.url}${route}`, { headers: { authorization: `Bearer ${exported(stdout, 'ADMIN_TOKEN')}` } }).then((r) => r.json() as Promise<{ data: any[] }>);
    const rules = async (stdout: string) => {
      const [resources, blackouts, quotas] = await Promise.all(['/booking/v1/resources?limit=100', '/booking/v1/blackouts?limit=100', '/booking/v1/quotas?limit=100'].map((route) => adminGet(stdout, route)));
      return { resources: resources!.data, blackouts: blackouts!.data, quotas: quotas!.data };
    };
    const before = await rules(first.stdout);
    const boardRoom = before.resources.find((r) => r.resourceId === 'demo-board-room');
    const focusRoom = before.resources.find((r) => r.resourceId === 'demo-focus-room');
    expect(boardRoom.bookingPolicy.bufferAfterMinutes).to.equal(15);
    // One holiday: a workspace-wide day off ahead that cancelled nothing.
    expect(before.blackouts).to.have.length(1);
    expect(before.blackouts[0]).to.include({ reason: 'Holiday', resourceIds: null });
    expect(Date.parse(before.blackouts[0].from)).to.be.greaterThan(Date.now() + 7 * 86_400_000);
    expect(Date.parse(before.blackouts[0].to) - Date.parse(before.blackouts[0].from)).to.be.within(23 * 3_600_000, 25 * 3_600_000);
    // One quota: hours per week per person on the focus room.
    expect(before.quotas).to.have.length(1);
    expect(before.quotas[0]).to.deep.include({ resourceIds: [focusRoom.id], limit: 8, unit: 'hours', per: 'week' });

    const bookingsBefore = await fetch(`${service.url}/booking/v1/bookings?limit=100&seriesParents=include`, { headers: { authorization: `Bearer ${exported(first.stdout, 'ADMIN_TOKEN')}` } }).then((r) => r.json() as Promise<{ total: number }>);
    const second = await seed();
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stderr).not.to.match(/^ {2}(zone|bookable resource|booking|series|blackout|quota) /m);
    const after = await rules(second.stdout);
    expect(after.blackouts.map((b) => b.id)).to.deep.equal(before.blackouts.map((b) => b.id));
    expect(after.quotas.map((q) => q.id)).to.deep.equal(before.quotas.map((q) => q.id));
    const bookingsAfter = await fetch(`${service.url}/booking/v1/bookings?limit=100&seriesParents=include`, { headers: { authorization: `Bearer ${exported(second.stdout, 'ADMIN_TOKEN')}` } }).then((r) => r.json() as Promise<{ total: number }>);
    expect(bookingsAfter.total).to.equal(bookingsBefore.total);

    // The tour's variables: registration ids, and the days of the demo's bookings, the same on a second run.
    expect(exported(first.stdout, 'BOARD_ROOM')).to.equal(boardRoom.id);
    expect(exported(first.stdout, 'FOCUS_ROOM')).to.equal(focusRoom.id);
    const days = (stdout: string) => ['DAY1', 'DAY2', 'DAY3', 'DAY4'].map((name) => exported(stdout, name));
    expect(days(second.stdout)).to.deep.equal(days(first.stdout));
    const townHall = (await adminGet(first.stdout, '/booking/v1/bookings?limit=100')).data.find((b) => b.title === 'Demo: town hall (whole hall)');
    expect(Temporal.Instant.from(townHall.startTime).toZonedDateTimeISO('Europe/Berlin').toPlainDate().toString()).to.equal(exported(first.stdout, 'DAY3'));
  });

  it('finds the service on its PORT without --url, as when both run with the same environment', async () => {
    const port = new URL(service.url).port;
    const run = await runScript('seed', [], { DATA_DIR: dataDir, PORT: port });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`is ready at http://localhost:${port}.`);
  });
});
