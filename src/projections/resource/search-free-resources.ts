import { Temporal } from 'temporal-polyfill';
import { isGuest, searchingAs, type Principal } from '../../domain/access/principal.js';
import { calendarDay } from '../../domain/booking/available-slots.js';
import { buffersOf, occupiedRange, type Buffers } from '../../domain/booking/occupied-range.js';
import type { CreateSeries } from '../../domain/booking/series/decide-create-series.js';
import { seriesSlots } from '../../domain/booking/series/decide-create-series.js';
import { findFreeForSeries, type PartlyFree } from '../../domain/search/find-free-for-series.js';
import { findFreeResources, policyVerdictsOf, type FreeSearch } from '../../domain/search/find-free-resources.js';
import type { FreeResourceCandidate } from '../../domain/search/free-resource-candidate.js';
import { suggestWindows, type Suggestion } from '../../domain/search/suggest-windows.js';
import type { ListedResource } from '../../domain/search/listed-resource.js';
import { emptyQuotaLedger } from '../../domain/quota/quota-refusal.js';
import type { Executor } from '../../infra/db/database.js';
import { findBlackoutsOverlapping, findBlackoutsOverlappingAny } from '../blackout/blackout-queries.js';
import { findQuotaLedger, findQuotaUsages } from '../quota/quota-queries.js';
import { findActiveBookingsOfBooker, findHeldInWindows, findMatchingIds, findMatchingResources, findWholes, type Window } from './free-resource-candidates.js';
import { matchesFilter, type FreeResourceFilter } from './matching-resources-sql.js';
import { followedWorkspace, type FollowedWorkspace } from './followed-workspaces.js';
import { freePage, type FreePage } from '../../domain/search/free-page.js';
import { unitsHeldBy, type UnitsHeld } from '../../domain/booking/unit-use.js';
import { admittedKeys, blackoutsInTheWay, exhaustedQuotas, keysOf } from '../../domain/search/free-search-keys.js';
import { sharingOf } from '../../domain/resource/resource-parts.js';

/** `free`: at most the limit asked of them (all for a series); `total`: how many are free in all. */
export type FreeResourcesAnswer = { free: ListedResource[]; total: number; partlyFree: PartlyFree[]; suggestions: Suggestion[] | null };

export type FreeResourcesQuery = FreeResourceFilter & {
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  /** The zone of the answer's calendar day (suggestions stay on from's day in it). */
  timeZone: string;
  limit: number;
  /** The units a create would take (contract §21). */
  units: number;
  /** A series: the bulk create's command, its first occurrence at startTime. */
  series?: { command: CreateSeries; includePartial: boolean };
};

/** The widest buffers a new booking on one of the resources would take. */
function widestBuffers(matching: readonly Omit<FreeResourceCandidate, 'bookings'>[]): Buffers {
  let bufferBeforeMinutes = 0;
  let bufferAfterMinutes = 0;
  for (const { resource } of matching) {
    const buffers = buffersOf(resource);
    bufferBeforeMinutes = Math.max(bufferBeforeMinutes, buffers.bufferBeforeMinutes);
    bufferAfterMinutes = Math.max(bufferAfterMinutes, buffers.bufferAfterMinutes);
  }
  return { bufferBeforeMinutes, bufferAfterMinutes };
}

/** The candidates with the bookings whose occupied ranges may meet a booking of one of the windows on them. */
async function withHeld(db: Executor, workspace: string, matching: Omit<FreeResourceCandidate, 'bookings'>[], windows: Window[], ids?: string[]): Promise<FreeResourceCandidate[]> {
  const buffers = widestBuffers(matching);
  const widened = windows.map((w) => occupiedRange(w.start, w.end, buffers));
  // A whole is taken by its parts' bookings and a part by its wholes' (contract §22).
  const sharing = sharingOf(await findWholes(db, workspace));
  const read = ids && [...new Set(ids.flatMap((id) => [id, ...(sharing.get(id) ?? [])]))];
  const held = await findHeldInWindows(db, workspace, widened, read);
  const occupying = (id: string) => [id, ...(sharing.get(id) ?? [])].flatMap((other) => held.get(other) ?? []);
  return matching.map((candidate) => ({ ...candidate, bookings: occupying(candidate.resource.id) }));
}

/** The windows a series' occurrences may take: one expansion per zone and horizon among the candidates. */
function seriesWindows(matching: readonly Omit<FreeResourceCandidate, 'bookings'>[], command: CreateSeries, actor: Principal, now: Temporal.Instant): Window[] {
  const expanded = new Map<string, Window[]>();
  for (const { resource } of matching) {
    const key = `${command.timeZone ?? resource.availability?.timeZone ?? 'UTC'}|${resource.bookingPolicy.maxAdvanceDays}`;
    if (!expanded.has(key)) expanded.set(key, seriesSlots(command, resource, searchingAs(actor), now));
  }
  return [...expanded.values()].flat();
}

/**
 * Contract §16. One window: the create's verdict decided once per policy key (src/domain/search),
 * the rest of it per resource over the workspace this process follows (freePageOf). A series: the resources matching the
 * filters and the bookings held in the windows asked, the verdict on each resource the create's own.
 */
export async function searchFreeResources(db: Executor, actor: Principal, query: FreeResourcesQuery, now: Temporal.Instant): Promise<FreeResourcesAnswer> {
  if (query.series) {
    const matching = await findMatchingResources(db, query, actor.sub);
    const { command, includePartial } = query.series;
    const windows = seriesWindows(matching, command, actor, now);
    // A guest cannot book: quotas, which count the caller's bookings, are skipped for it (contract §16).
    const [candidates, quotaLedger, blackouts] = await Promise.all([
      withHeld(db, query.workspace, matching, windows),
      isGuest(actor) || windows.length === 0 ? emptyQuotaLedger : findQuotaLedger(db, query.workspace, actor.sub, windows.map((w) => w.start)),
      findBlackoutsOverlappingAny(db, query.workspace, windows),
    ]);
    const found = findFreeForSeries(candidates, command, actor, now, { includePartial, policyRefusal: policyVerdictsOf(candidates), quotaLedger, blackouts });
    return { ...found, total: found.free.length, suggestions: null };
  }
  // Suggestions start on from's calendar day and last as long as the window asked: this window holds them and the one asked.
  const day = calendarDay(query.startTime.toZonedDateTimeISO(query.timeZone).toPlainDate(), query.timeZone);
  const dayWindow = { start: day.start, end: day.end.add(query.startTime.until(query.endTime)) };
  const [followed, quotas, blackouts, zoned] = await Promise.all([
    followedWorkspace(db, query.workspace),
    isGuest(actor) ? [] : findQuotaUsages(db, query.workspace, actor.sub, query.startTime),
    findBlackoutsOverlapping(db, query.workspace, dayWindow.start, dayWindow.end),
    query.zoneId === undefined ? null : findMatchingIds(db, query),
  ]);
  const search: FreeSearch = { startTime: query.startTime, endTime: query.endTime, actor, now, quotas, blackouts, units: query.units };
  const page = await freePageOf(db, query, followed, zoned, search);
  if (page.total >= query.limit) return { ...page, partlyFree: [], suggestions: null };
  // Fewer free than asked: suggestions on the others, which today's path finds with their bookings.
  // A resource of fewer units than asked is refused at every time (unitsRefusal): never suggested.
  const matching = (await findMatchingResources(db, query, actor.sub)).filter((m) => m.resource.units >= query.units);
  if (matching.length === 0) return { ...page, partlyFree: [], suggestions: [] };
  const candidates = await withHeld(db, query.workspace, matching, [{ start: query.startTime, end: query.endTime }]);
  const policyRefusal = policyVerdictsOf(candidates);
  const { taken } = findFreeResources(candidates, search, policyRefusal);
  if (taken.length === 0) return { ...page, partlyFree: [], suggestions: [] };
  const takenWithDay = await withHeld(db, query.workspace, taken, [dayWindow], taken.map((t) => t.resource.id));
  return { ...page, partlyFree: [], suggestions: suggestWindows(takenWithDay, search, query.timeZone, policyRefusal) };
}

/**
 * One window (contract §16) over the workspace as this process follows it: the candidates matching
 * the filters (a zone's through the statement, the zone tree being the database's), the create's
 * verdict once per policy key, the rest per resource in freePage. The caller's active bookings are
 * counted only where an admitted key limits them; a window reaching before the bookings the
 * followed workspace holds is given those read for it.
 */
async function freePageOf(db: Executor, query: FreeResourcesQuery, followed: FollowedWorkspace, zoned: ReadonlySet<string> | null, search: FreeSearch): Promise<FreePage> {
  const filtered = zoned !== null || query.resourceType !== undefined || query.minCapacity !== undefined || query.groupId !== undefined;
  const candidates = filtered ? followed.resources.filter(({ resource }) => matchesFilter(resource, query) && (zoned === null || zoned.has(resource.id))) : followed.resources;
  const keys = admittedKeys(keysOf(candidates), search);
  if (keys.size === 0) return { total: 0, free: [] };
  const limited = [...keys.values()].some((k) => k.maxBookingsPerUser !== null);
  const earliestMs = Math.min(...[...keys.values()].map((k) => k.occupied.startMs));
  const latestMs = Math.max(...[...keys.values()].map((k) => k.occupied.endMs));
  const [active, held] = await Promise.all([
    limited ? findActiveBookingsOfBooker(db, search.actor.sub) : new Map<string, number>(),
    earliestMs >= followed.heldFromMs ? followed.heldIn(earliestMs, latestMs) : heldInWindow(db, query.workspace, earliestMs, latestMs),
  ]);
  return freePage(candidates, {
    keys,
    units: query.units,
    limit: query.limit,
    blackouts: blackoutsInTheWay(search),
    quotas: exhaustedQuotas(search),
    activeOfBooker: (id) => active.get(id) ?? 0,
    held,
    sharing: followed.sharing,
  });
}

/** The units held on each resource over [fromMs, toMs), read for a window before what the followed workspace holds. */
async function heldInWindow(db: Executor, workspace: string, fromMs: number, toMs: number): Promise<Map<string, UnitsHeld[]>> {
  const window = { start: Temporal.Instant.fromEpochMilliseconds(fromMs), end: Temporal.Instant.fromEpochMilliseconds(toMs) };
  const held = await findHeldInWindows(db, workspace, [window]);
  return new Map([...held].map(([id, bookings]) => [id, unitsHeldBy(bookings)]));
}
