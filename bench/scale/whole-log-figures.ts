import { sql } from 'kysely';
import type { Database } from '../../src/infra/db/database.js';
import { publishedEventNames, publishedUnder } from '../../src/infra/event-store/published-event-condition.js';
import { startKafkaBroker } from '../../tests/support/kafka-broker.js';
import { runTool as runWatched, type ToolRun } from '../../tests/support/tool-run.js';

/** One figure of the scale run beside its target: `higherIsBetter` tells how `target` bounds it. */
export type ScaleFigure = { name: string; value: number; unit: string; target?: { bound: number; higherIsBetter: boolean; text: string }; note?: string };

const day = 24 * 3_600_000;
const memoryBoundMiB = 512;

type ScaleToolRun = ToolRun & { seconds: number; stdoutLines: number };

/**
 * Runs `npm run <script>` as an operator does, its progress shown; a non-zero exit throws.
 * `countLines` counts stdout's lines without keeping them (replay to stdout).
 */
async function runTool(script: string, args: string[], env: Record<string, string>, { countLines = false } = {}): Promise<ScaleToolRun> {
  let stdoutLines = 0;
  const run = await runWatched(script, args, env, { showStderr: true, onStdoutLine: countLines ? () => void stdoutLines++ : undefined });
  if (run.code !== 0) throw new Error(`npm run ${script} ${args.join(' ')} exited with ${run.code}: ${run.stderr.slice(-500)}`);
  return { ...run, seconds: run.ms / 1000, stdoutLines };
}

/** The peak resident memory of a tool's process tree (npm, tsx and node), beside the bound. */
const memoryFigure = (what: string, run: ToolRun): ScaleFigure => ({
  name: `${what}: peak RSS of npm, tsx and node together`,
  value: run.peakRssBytes / 2 ** 20,
  unit: 'MiB',
  target: { bound: memoryBoundMiB, higherIsBetter: false, text: `< ${memoryBoundMiB} MiB` },
});

const count = async (db: Database, where = sql<boolean>`true`) =>
  Number((await sql<{ n: string }>`select count(*) as n from events where ${where}`.execute(db)).rows[0]!.n);

/** The read models rebuilt from the whole log by `npm run rebuild-read-models`. */
export async function rebuildFigures(db: Database, env: Record<string, string>): Promise<ScaleFigure[]> {
  const events = await count(db);
  console.error(`scale: npm run rebuild-read-models on ${events} events …`);
  const run = await runTool('rebuild-read-models', [], env);
  return [
    { name: `rebuild-read-models (${events.toLocaleString('en')} events, ${run.seconds.toFixed(1)} s)`, value: events / run.seconds, unit: 'events/s', target: { bound: 20_000, higherIsBetter: true, text: '≥ 20,000 events/s' } },
    memoryFigure('rebuild-read-models', run),
  ];
}

/** The retention run: `npm run archive` of the log's first year. */
export async function archiveFigures(db: Database, env: Record<string, string>, firstMs: number): Promise<ScaleFigure[]> {
  const before = new Date(firstMs + 365 * day).toISOString();
  console.error(`scale: npm run archive -- --before ${before} …`);
  const run = await runTool('archive', ['--before', before], env);
  const archived = Number(/archived (\d+) bookings/.exec(run.stdout)?.[1] ?? NaN);
  return [
    { name: `archive of the first year (${archived.toLocaleString('en')} bookings, ${run.seconds.toFixed(1)} s)`, value: archived / run.seconds, unit: 'bookings/s', target: { bound: 10_000, higherIsBetter: true, text: '≥ 10,000 bookings/s' } },
    memoryFigure('archive', run),
  ];
}

/** verify-log, replay to stdout and (with KAFKA_LIBS or KAFKA_BROKERS) to a real broker, on the whole log. */
export async function readingToolFigures(db: Database, env: Record<string, string>): Promise<ScaleFigure[]> {
  const events = await count(db);
  const published = await count(db, publishedUnder(publishedEventNames));
  console.error(`scale: npm run verify-log on ${events} events …`);
  const verify = await runTool('verify-log', [], env);
  console.error(`scale: npm run replay -- --after 0 --to stdout (${published} published events) …`);
  const replay = await runTool('replay', ['--after', '0', '--to', 'stdout'], env, { countLines: true });
  const figures: ScaleFigure[] = [
    { name: `verify-log (${events.toLocaleString('en')} events, ${verify.seconds.toFixed(1)} s)`, value: events / verify.seconds, unit: 'events/s', target: { bound: 100_000, higherIsBetter: true, text: '≥ 100,000 events/s' } },
    memoryFigure('verify-log', verify),
    { name: `replay to stdout (${replay.stdoutLines.toLocaleString('en')} events, ${replay.seconds.toFixed(1)} s)`, value: replay.stdoutLines / replay.seconds, unit: 'events/s', target: { bound: 50_000, higherIsBetter: true, text: '≥ 50,000 events/s' } },
    memoryFigure('replay to stdout', replay),
  ];
  if (!process.env.KAFKA_LIBS && !process.env.KAFKA_BROKERS) {
    figures.push({ name: 'replay to Kafka', value: NaN, unit: 'events/s', note: 'not run: set KAFKA_LIBS (bash .ci/kafka/fetch) or KAFKA_BROKERS' });
    return figures;
  }
  const broker = await startKafkaBroker();
  try {
    console.error(`scale: npm run replay -- --after 0 --to kafka (${published} published events) …`);
    const kafka = await runTool('replay', ['--after', '0', '--to', 'kafka'], { ...env, KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC: 'booking.scale' });
    figures.push(
      { name: `replay to Kafka (${published.toLocaleString('en')} events, ${kafka.seconds.toFixed(1)} s)`, value: published / kafka.seconds, unit: 'events/s', target: { bound: 20_000, higherIsBetter: true, text: '≥ 20,000 events/s' } },
      memoryFigure('replay to Kafka', kafka),
    );
  } finally {
    await broker.stop();
  }
  return figures;
}

/** The audit feed paged to the end through the running service, 1,000 events a page, as a root (LV1) auditor. */
export async function auditFeedFigure(url: string, rootToken: string): Promise<ScaleFigure> {
  console.error('scale: the audit feed paged to the end …');
  const started = Date.now();
  let events = 0;
  for (let after = 0; ; ) {
    const response = await fetch(`${url}/booking/v1/events?after=${after}&limit=1000`, { headers: { authorization: `Bearer ${rootToken}` } });
    if (response.status !== 200) throw new Error(`audit feed after ${after}: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { events: unknown[]; next: number };
    events += page.events.length;
    if (page.next === after) break;
    after = page.next;
  }
  const seconds = (Date.now() - started) / 1000;
  return { name: `audit feed over HTTP (${events.toLocaleString('en')} events, ${seconds.toFixed(1)} s)`, value: events / seconds, unit: 'events/s', target: { bound: 50_000, higherIsBetter: true, text: '≥ 50,000 events/s' } };
}

/**
 * Disk: the events table with its indexes (and TOAST) per event; the live read model of bookings
 * per live booking, and the whole database per live booking.
 */
export async function diskFigures(db: Database): Promise<ScaleFigure[]> {
  const { rows } = await sql<{ events: string; events_bytes: string; events_heap: string; bookings: string; bookings_bytes: string; database_bytes: string }>`
    select (select count(*) from events) as events,
      pg_total_relation_size('events') as events_bytes,
      pg_table_size('events') as events_heap,
      (select count(*) from bookings) as bookings,
      pg_total_relation_size('bookings') as bookings_bytes,
      pg_database_size(current_database()) as database_bytes`.execute(db);
  const r = rows[0]!;
  const [events, bookings] = [Number(r.events), Number(r.bookings)];
  return [
    { name: `events table and its indexes per event (${(Number(r.events_bytes) / 2 ** 20).toFixed(0)} MiB for ${events.toLocaleString('en')} events)`, value: Number(r.events_bytes) / events, unit: 'bytes', note: `${(Number(r.events_heap) / events).toFixed(0)} bytes of it the table (with TOAST), the rest its indexes` },
    { name: `bookings read model per live booking (${bookings.toLocaleString('en')} live bookings)`, value: Number(r.bookings_bytes) / bookings, unit: 'bytes' },
    { name: 'the whole database per live booking', value: Number(r.database_bytes) / bookings, unit: 'bytes', note: `${(Number(r.database_bytes) / 2 ** 20).toFixed(0)} MiB in all` },
  ];
}
