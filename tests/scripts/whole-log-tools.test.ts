import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import type { BookingEvent } from '../../src/domain/booking/booking-events.js';
import { decideCancelBooking } from '../../src/domain/booking/decide-cancel-booking.js';
import { decideCheckInBooking } from '../../src/domain/booking/decide-check-in-booking.js';
import { decideConfirmBooking } from '../../src/domain/booking/decide-confirm-booking.js';
import { decideCreateBooking } from '../../src/domain/booking/decide-create-booking.js';
import { decideCompletion } from '../../src/domain/booking/decide-system-moves.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../../src/domain/resource/resource.js';
import type { NewEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { publishedUnder, publishedEventNames } from '../../src/infra/event-store/published-event-condition.js';
import { projectors } from '../../src/projections/projectors.js';
import { findResource } from '../../src/projections/resource/resource-queries.js';
import { snapshotOf } from '../support/read-model-snapshot.js';
import { postgresServer } from '../support/scratch-database.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { startTestServer } from '../support/test-server.js';

/**
 * Contract §20: the whole-log tools (rebuild, verify-log, replay, archive, the audit feed) on a log of
 * 100,000 events, each tool run as an operator runs it (`npm run …`, stderr a pipe): right answers,
 * a progress line on stderr at least every 5 s, and the peak memory of the tool's processes (npm,
 * tsx, node together) under 512 MB. The same tools also run on a 10,000-event log first: a tool
 * whose memory grows with the log shows there (the peak at 100,000 may not exceed 1.5× the one at 10,000, or that one and 40 MB).
 */
const events = Number(process.env.WHOLE_LOG_EVENTS ?? 100_000);
const smallEvents = Math.round(events / 10);
const resourceCount = 300;
const memoryBoundBytes = 512 * 1024 * 1024;
const progressEveryMs = 5_000;

const admin: Principal = { sub: 'scale-admin', workspace: null, level: 1, groups: [], email: null };
const bookerOf = (resource: Resource, i: number): Principal => ({
  sub: `user-${i % 80}`,
  workspace: resource.workspace,
  level: 4,
  groups: [],
  email: `user-${i % 80}@example.com`,
});
const at = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);
const hour = 3_600_000;

/** One booking's life, in the moves a workspace sees most: pending, then confirmed and checked in and completed, or cancelled, or completed without check-in. */
function bookingLife(resource: Resource, i: number, startMs: number): NewEvent[] {
  const booker = bookerOf(resource, i);
  const start = at(startMs);
  const createdEvent = decideCreateBooking(
    { id: randomUUID(), title: `Scale ${i}`, startTime: start, endTime: start.add({ hours: 1 }) },
    { resource, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] },
    booker,
    at(startMs - 48 * hour),
  );
  const life: BookingEvent[] = [createdEvent];
  let booking = createdEvent.data.booking;
  const state = () => ({ booking, resource });
  if (i % 4 === 3) {
    life.push(decideCancelBooking(state(), admin, at(startMs - 24 * hour), 'plans changed'));
  } else {
    const confirmed = decideConfirmBooking(state(), admin, at(startMs - 40 * hour));
    booking = confirmed.data.booking;
    life.push(confirmed);
    if (i % 4 !== 2) {
      const checkedIn = decideCheckInBooking(state(), booker, at(startMs + 60_000));
      booking = checkedIn.data.booking;
      life.push(checkedIn);
    }
    life.push(...decideCompletion(booking, at(startMs + hour)));
  }
  return life as NewEvent[];
}

/** Appends about `total` events through the store's own append path, read models projected in each append: a few hundred resources, bookings back in time from `endMs`. */
async function buildLog(database: TestDatabase, total: number, endMs: number): Promise<{ bookings: number }> {
  const store = createPostgresEventStore(database.db, { projections: projectors });
  const workspace = randomUUID();
  const perResource = Math.ceil(total / resourceCount);
  let bookings = 0;
  const fill = async (r: number) => {
    const id = randomUUID();
    const registered = decideRegister(
      { id, workspace, resourceType: 'zone', resourceId: `scale-${r}`, resourceName: `Scale ${r}`, bookingPolicy: { maxAdvanceDays: 3650, autoConfirm: false } },
      null,
      admin,
      at(endMs - 5 * 365 * 24 * hour),
    );
    let revision = (await store.appendToStream(resourceStreamId(id), [registered], 'no_stream')).nextExpectedRevision;
    const resource = (await findResource(database.db, id))!;
    const stream: NewEvent[] = [];
    // Two hours apart, back in time from endMs: the oldest first, as they were booked.
    const count = Math.floor((perResource - 1) / 3.25);
    for (let i = count; i > 0; i--) stream.push(...bookingLife(resource, r * 1000 + i, endMs - i * 2 * hour));
    bookings += count;
    for (let i = 0; i < stream.length; i += 500) {
      revision = (await store.appendToStream(resourceStreamId(id), stream.slice(i, i + 500), revision)).nextExpectedRevision;
    }
  };
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next < resourceCount) await fill(next++);
  }));
  return { bookings };
}

type ToolRun = {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakRssBytes: number;
  /** When each stderr line came, in ms from the start. */
  stderrLineTimes: number[];
};

/** Every process below `root`, `root` included. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Runs `npm run <script> -- <args>` as an operator does, stdout and stderr pipes; samples the summed
 * RSS of its process tree every 100 ms. `onStdoutLine`, when given, hears stdout line by line (and
 * stdout is not kept).
 */
function runTool(script: string, args: string[], env: Record<string, string>, onStdoutLine?: (line: string) => void): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peakRssBytes = 0;
    const sample = setInterval(() => {
      peakRssBytes = Math.max(peakRssBytes, processTree(child.pid!).reduce((sum, pid) => sum + rssOf(pid), 0));
    }, 100);
    let stdout = '';
    let stderr = '';
    const stderrLineTimes: number[] = [];
    if (onStdoutLine) createInterface({ input: child.stdout }).on('line', onStdoutLine);
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      stderr += text;
      for (let n = (text.match(/\n/g) ?? []).length; n > 0; n--) stderrLineTimes.push(Date.now() - started);
    });
    child.on('error', (error) => {
      clearInterval(sample);
      reject(error);
    });
    child.on('close', (code) => {
      clearInterval(sample);
      resolve({ code, stdout, stderr, ms: Date.now() - started, peakRssBytes, stderrLineTimes });
    });
  });
}

/** Progress at least every 5 s: the gaps from the start through each stderr line to the end. */
function expectProgress(name: string, run: ToolRun): void {
  const times = [0, ...run.stderrLineTimes, run.ms];
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  expect(Math.max(...gaps), `${name}: longest silence on stderr (lines at ${run.stderrLineTimes.join(', ')} ms of ${run.ms})`).to.be.at.most(progressEveryMs);
}

function expectBounded(name: string, run: ToolRun): void {
  expect(run.peakRssBytes, `${name}: peak RSS of its processes`).to.be.above(0).and.at.most(memoryBoundBytes);
}

/** `peakRssMB`: the tool's processes; the audit feed is served in the test's own process, whose RSS stands there as `testProcessRssMB`. */
type Figures = Record<string, { ms: number; perSecond: number; peakRssMB?: number; testProcessRssMB?: number }>;

const figure = (run: ToolRun, count: number) => ({
  ms: run.ms,
  perSecond: Math.round(count / (run.ms / 1000)),
  peakRssMB: Math.round(run.peakRssBytes / 1024 / 1024),
});

/** Runs every whole-log tool on a fresh log of about `total` events and checks its answers; answers its figures. */
async function exerciseTools(total: number): Promise<{ logEvents: number; figures: Figures }> {
  const database = await createTestDatabase();
  try {
    const endMs = Temporal.Now.instant().epochMilliseconds - 3 * 24 * hour;
    const buildStarted = Date.now();
    const { bookings } = await buildLog(database, total, endMs);
    const buildMs = Date.now() - buildStarted;
    const logEvents = Number((await sql<{ n: string }>`select count(*) as n from events`.execute(database.db)).rows[0]!.n);
    const figures: Figures = { build: { ms: buildMs, perSecond: Math.round(logEvents / (buildMs / 1000)) } };

    // Rebuild: the read models come back equal to the ones projected in each append.
    const live = await snapshotOf(database.db);
    const rebuild = await runTool('rebuild-read-models', [], database.env);
    expect(rebuild.code, rebuild.stderr).to.equal(0);
    expect(rebuild.stdout).to.contain(`rebuilt the read models from ${logEvents} events`);
    expect(await snapshotOf(database.db)).to.deep.equal(live);
    expectProgress('rebuild', rebuild);
    expectBounded('rebuild', rebuild);
    figures.rebuild = figure(rebuild, logEvents);

    // verify-log: every event counted, every chain intact.
    const verify = await runTool('verify-log', [], database.env);
    expect(verify.code, verify.stderr).to.equal(0);
    expect(verify.stdout).to.contain(`verified ${logEvents} events: every chain holds`);
    expectProgress('verify-log', verify);
    expectBounded('verify-log', verify);
    figures.verifyLog = figure(verify, logEvents);

    // Replay to stdout: every published event once, in log order (the commits': transaction, then position), as the log holds them.
    const { rows: publishedRows } = await sql<{ event_id: string; global_position: string }>`
      select event_id, global_position from events where ${publishedUnder(publishedEventNames)} order by transaction_id, global_position`.execute(database.db);
    const published = publishedRows.map((r) => `${r.event_id}@${r.global_position}`);
    const replayed: string[] = [];
    const replay = await runTool('replay', ['--after', '0', '--to', 'stdout'], database.env, (line) => {
      const envelope = JSON.parse(line) as { id: string; position: number };
      replayed.push(`${envelope.id}@${envelope.position}`);
    });
    expect(replay.code, replay.stderr).to.equal(0);
    expect(replayed.length).to.equal(published.length);
    const firstOff = replayed.findIndex((r, i) => r !== published[i]);
    expect(firstOff, `replay from ${replayed[firstOff]} where the log holds ${published[firstOff]}`).to.equal(-1);
    expectProgress('replay', replay);
    expectBounded('replay', replay);
    figures.replayStdout = figure(replay, replayed.length);

    // The audit feed paged to the end through the HTTP API: every published event once, in order.
    const server = await startTestServer({}, { database, workspace: randomUUID() });
    try {
      const token = server.token({ level: 'LV1', sub: 'root', workspace: null });
      const feedStarted = Date.now();
      const fed: string[] = [];
      for (let after = 0; ; ) {
        const page = await server.request('GET', `/booking/v1/events?after=${after}&limit=1000`, { token });
        expect(page.status, JSON.stringify(page.body)).to.equal(200);
        for (const envelope of page.body.events as { id: string; position: number }[]) fed.push(`${envelope.id}@${envelope.position}`);
        if (page.body.next === after) break;
        after = page.body.next;
      }
      expect(fed.length).to.equal(published.length);
      const feedOff = fed.findIndex((f, i) => f !== published[i]);
      expect(feedOff, `feed gave ${fed[feedOff]} where the log holds ${published[feedOff]}`).to.equal(-1);
      const feedMs = Date.now() - feedStarted;
      figures.auditFeed = { ms: feedMs, perSecond: Math.round(fed.length / (feedMs / 1000)), testProcessRssMB: Math.round(process.memoryUsage().rss / 1024 / 1024) };

      // Archive of the older half: those bookings leave the live model, their history still answers.
      const cutoff = at(endMs - Math.floor(bookings / resourceCount / 2) * 2 * hour);
      const { rows: due } = await sql<{ id: string }>`
        select id from bookings where end_time < ${new Date(cutoff.epochMilliseconds)} and status in ('completed', 'cancelled')`.execute(database.db);
      expect(due.length, `bookings ended before ${cutoff.toString()} of ${bookings}`).to.be.above(bookings / 4);
      const archive = await runTool('archive', ['--before', cutoff.toString()], database.env);
      expect(archive.code, archive.stderr).to.equal(0);
      expect(archive.stdout).to.contain(`archived ${due.length} bookings`);
      const { rows: left } = await sql<{ n: string }>`select count(*) as n from bookings where end_time < ${new Date(cutoff.epochMilliseconds)}`.execute(database.db);
      expect(Number(left[0]!.n)).to.equal(0);
      const sampleId = due[Math.floor(due.length / 2)]!.id;
      const archived = await server.request('GET', `/booking/v1/bookings/${sampleId}`, { token });
      expect([archived.status, typeof archived.body.archivedAt]).to.deep.equal([200, 'string']);
      const history = await server.request('GET', `/booking/v1/bookings/${sampleId}/history`, { token });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expectProgress('archive', archive);
      expectBounded('archive', archive);
      figures.archive = figure(archive, due.length);
    } finally {
      await server.close();
    }
    return { logEvents, figures };
  } finally {
    await database.destroy();
  }
}

(postgresServer ? describe : describe.skip)('the whole-log tools on a long log (contract §20)', function () {
  this.timeout(600_000);

  it(`answer right, show progress every 5 s and stay under 512 MB on ${events} events, with memory that does not grow with the log`, async () => {
    const small = await exerciseTools(smallEvents);
    const large = await exerciseTools(events);
    console.log(JSON.stringify({ wholeLogTools: { [small.logEvents]: small.figures, [large.logEvents]: large.figures } }));
    for (const tool of ['rebuild', 'verifyLog', 'replayStdout', 'archive'] as const) {
      const [smallPeak, largePeak] = [small.figures[tool]!.peakRssMB!, large.figures[tool]!.peakRssMB!];
      expect(largePeak, `${tool}: peak RSS at ${large.logEvents} events against ${small.logEvents}`).to.be.at.most(Math.max(1.5 * smallPeak, smallPeak + 40));
    }
  });
});
