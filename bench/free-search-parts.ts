/**
 * The free search's parts, timed in-process on a database seeded by the free-resources workloads and
 * kept with `npm run bench -- --only free-resources,free-resources-series --skip-pgbench --keep-database`:
 *
 *   DB_HOST=127.0.0.1 npx tsx bench/free-search-parts.ts <database> [from] [repeat]
 *
 * Finds the workspace with the most resources, then times, one call at a time (no HTTP): the whole
 * one-hour search and the series search (FREQ=WEEKLY;COUNT=20, Europe/Berlin) from `from` (default
 * the next working day 10:00 Berlin), and their parts: both loaders, the verdicts on every candidate
 * (also without stack traces, the cost of the refusals' DomainErrors), the series verdicts on every
 * candidate and on one per policy key. Wall times, to read beside the load average it prints, and
 * this process's CPU time (user + system) per call, which other processes' load hardly changes;
 * PostgreSQL's share is not in it.
 */
import os from 'node:os';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../src/domain/access/principal.js';
import { seriesSlots } from '../src/domain/booking/series/decide-create-series.js';
import { emptyQuotaLedger } from '../src/domain/quota/quota-refusal.js';
import { findFreeForSeries } from '../src/domain/search/find-free-for-series.js';
import { findFreeResources, policyVerdictsOf } from '../src/domain/search/find-free-resources.js';
import type { FreeResourceCandidate } from '../src/domain/search/free-resource-candidate.js';
import { parseFreeResourcesQuery } from '../src/api/booking/free-resources-query.js';
import { createDatabase } from '../src/infra/db/database.js';
import { findHeldInWindows, findMatchingResources } from '../src/projections/resource/free-resource-candidates.js';
import { searchFreeResources } from '../src/projections/resource/search-free-resources.js';

const [database, fromArg, repeatArg] = process.argv.slice(2);
if (!database || !process.env.DB_HOST) {
  console.error('usage: DB_HOST=… npx tsx bench/free-search-parts.ts <database> [from] [repeat]');
  process.exit(2);
}
const repeat = Number(repeatArg ?? 10);
const db = createDatabase({ kind: 'postgres', host: process.env.DB_HOST, port: Number(process.env.DB_PORT ?? 5432), user: process.env.DB_USERNAME ?? 'postgres', password: process.env.DB_PASSWORD, database, poolSize: 2 });

async function timed<T>(label: string, times: number, work: () => Promise<T> | T): Promise<T> {
  let result = await work(); // warm
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < times; i++) result = await work();
  const used = process.cpuUsage(cpu);
  console.log(`| ${label} | ${((performance.now() - start) / times).toFixed(1)} | ${((used.user + used.system) / 1000 / times).toFixed(1)} |`);
  return result;
}

try {
  const { rows } = await sql<{ workspace: string }>`select workspace from resources group by workspace order by count(*) desc limit 1`.execute(db);
  const workspace = rows[0]!.workspace;
  const actor: Principal = { sub: 'bench-searcher', workspace, level: 4, groups: [], email: 'bench-searcher@example.com' };
  let day = Temporal.Now.zonedDateTimeISO('Europe/Berlin').toPlainDate().add({ days: 1 });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  const from = fromArg ? Temporal.Instant.from(fromArg) : day.toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: '10:00' }).toInstant();
  const window = { from: from.toString(), to: from.add({ hours: 1 }).toString(), tz: 'Europe/Berlin' };
  const query = parseFreeResourcesQuery(window, actor);
  const seriesQuery = parseFreeResourcesQuery({ ...window, recurrenceRule: 'FREQ=WEEKLY;COUNT=20', timeZone: 'Europe/Berlin' }, actor);
  const now = Temporal.Now.instant();
  console.log(`workspace ${workspace}, window ${window.from}–${window.to}, load average ${os.loadavg()[0]!.toFixed(1)}\n\n| part | wall ms | CPU ms (this process) |\n|---|---:|---:|`);

  const found = await timed('whole one-hour search', repeat, () => searchFreeResources(db, actor, query, now));
  const matching = await timed('findMatchingResources', repeat, () => findMatchingResources(db, query, actor.sub));
  const held = await timed('findHeldInWindows, one window', repeat, () => findHeldInWindows(db, workspace, [{ start: query.startTime, end: query.endTime }]));
  const candidates: FreeResourceCandidate[] = matching.map((c) => ({ ...c, bookings: held.get(c.resource.id) ?? [] }));
  const search = { startTime: query.startTime, endTime: query.endTime, actor, now, quotas: [], blackouts: [] };
  await timed(`findFreeResources on ${candidates.length} candidates`, repeat, () => findFreeResources(candidates, search, policyVerdictsOf(candidates)));
  const stackLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  await timed('… with Error.stackTraceLimit = 0', repeat, () => findFreeResources(candidates, search, policyVerdictsOf(candidates)));
  Error.stackTraceLimit = stackLimit;

  const series = seriesQuery.series!;
  await timed('whole series search', 1, () => searchFreeResources(db, actor, seriesQuery, now));
  const windows = await timed('seriesSlots (one expansion)', repeat, () => seriesSlots(series.command, matching[0]!.resource, actor, now));
  const seriesHeld = await timed(`findHeldInWindows, ${windows.length} windows`, repeat, () => findHeldInWindows(db, workspace, windows));
  const seriesCandidates = matching.map((c) => ({ ...c, bookings: seriesHeld.get(c.resource.id) ?? [] }));
  const options = { includePartial: false, policyRefusal: policyVerdictsOf(seriesCandidates), quotaLedger: emptyQuotaLedger, blackouts: [] };
  await timed(`findFreeForSeries on ${seriesCandidates.length} candidates`, 1, () => findFreeForSeries(seriesCandidates, series.command, actor, now, options));
  const onePerKey = [...new Map(seriesCandidates.map((c) => [c.policyKey, c])).values()];
  await timed(`findFreeForSeries on one candidate per policy key (${onePerKey.length})`, repeat, () => findFreeForSeries(onePerKey, series.command, actor, now, options));
  console.log(`\n${found.free.length} free of ${matching.length} in the hour; load average ${os.loadavg()[0]!.toFixed(1)} at the end`);
} finally {
  await db.destroy();
}
