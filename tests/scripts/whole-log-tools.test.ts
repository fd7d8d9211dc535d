import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { archivableStatuses } from '../../src/domain/booking/decide-archive-bookings.js';
import { publishedUnder, publishedEventNames } from '../../src/infra/event-store/published-event-condition.js';
import { buildLongLog, longLogBookingGapMs, longLogResources } from '../support/long-log.js';
import { snapshotOf } from '../support/read-model-snapshot.js';
import { postgresServer } from '../support/scratch-database.js';
import { createTestDatabase } from '../support/test-database.js';
import { startTestServer } from '../support/test-server.js';
import { runTool, type ToolRun } from '../support/tool-run.js';

/**
 * Contract §20: the whole-log tools (rebuild, verify-log, replay, archive, the audit feed) on a log of
 * 100,000 events, each tool run as an operator runs it (`npm run …`, stderr a pipe): right answers,
 * a progress line on stderr at least every 5 s, and the peak memory of the tool's processes (npm,
 * tsx, node together) under 512 MB. The same tools also run on a 10,000-event log first: a tool
 * whose memory grows with the log shows there (the peak at 100,000 may not exceed 1.5× the one at 10,000, or that one and 40 MB).
 */
const events = Number(process.env.WHOLE_LOG_EVENTS ?? 100_000);
const smallEvents = Math.round(events / 10);
const memoryBoundBytes = 512 * 1024 * 1024;
const progressEveryMs = 5_000;
const hour = 3_600_000;

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
    const { bookings } = await buildLongLog(database.db, total, endMs);
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
    const replay = await runTool('replay', ['--after', '0', '--to', 'stdout'], database.env, {
      onStdoutLine: (line) => {
        const envelope = JSON.parse(line) as { id: string; position: number };
        replayed.push(`${envelope.id}@${envelope.position}`);
      },
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
      const cutoff = Temporal.Instant.fromEpochMilliseconds(endMs - Math.floor(bookings / longLogResources / 2) * longLogBookingGapMs);
      const { rows: due } = await sql<{ id: string }>`
        select id from bookings where end_time < ${new Date(cutoff.epochMilliseconds)} and status = any(${[...archivableStatuses]})`.execute(database.db);
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
