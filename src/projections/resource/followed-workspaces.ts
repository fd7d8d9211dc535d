import { sql } from 'kysely';
import { activeStatuses } from '../../domain/booking/booking.js';
import { occupiedMs } from '../../domain/booking/occupied-range.js';
import type { UnitsHeld } from '../../domain/booking/unit-use.js';
import { sharingOf } from '../../domain/resource/resource-parts.js';
import { compareCandidates } from '../../domain/search/free-resource-candidate.js';
import type { KeyedResource } from '../../domain/search/free-page.js';
import { boundedCache, type BoundedCache } from '../../infra/cache/bounded-cache.js';
import type { Executor } from '../../infra/db/database.js';
import { compileOnce, holesOf, type Holes } from '../../infra/db/sql-template.js';
import { logHorizon } from '../../infra/event-store/log-horizon.js';
import { bookingOccupiedRangeSql } from '../booking/occupied-range-sql.js';
import { heldBookingJsonSql, type HeldBookingJson } from '../booking/held-booking-row.js';
import { resourcesAt } from './free-resource-candidates.js';

/**
 * A workspace's live resources and the units their active bookings hold, as this process last read
 * them, and `since`: every row change by a transaction before it is in them (a transaction id below
 * the late-commit horizon, log-horizon.ts, as §25's sync tokens). `heldFromMs`: every active booking
 * whose occupied range ends after it is held.
 */
export type FollowedWorkspace = {
  /** In the contract's order (compareCandidates). */
  readonly resources: readonly KeyedResource[];
  readonly byId: ReadonlyMap<string, KeyedResource>;
  readonly sharing: ReadonlyMap<string, ReadonlySet<string>>;
  /** The units held on each resource (of `of` only, where given) that share time with [fromMs, toMs), by resource (absent: none). */
  heldIn(fromMs: number, toMs: number, of?: ReadonlySet<string>): Map<string, UnitsHeld[]>;
  readonly heldFromMs: number;
};

type HeldOn = UnitsHeld & { resourceId: string };

type Followed = {
  since: bigint;
  loadedAtMs: number;
  heldFromMs: number;
  resources: Map<string, KeyedResource>;
  /** Active bookings by id: what each holds on the resource it occupies. */
  bookings: Map<string, HeldOn>;
  view: FollowedWorkspace | null;
  refresh: () => Promise<void>;
};

type ChangesRow = { horizon: string; bookings: (HeldBookingJson & { resource: string })[]; resources: { id: string; stream_revision: string }[] };

/** How far back of the machine's clock a load holds bookings, and how long a followed workspace lives before it is loaded afresh (its old bookings dropped). */
const heldBackMs = 24 * 3_600_000;
const reloadAfterMs = 3_600_000;

const bookingJson = sql`json_build_object('resource', b.bookable_resource_id)::jsonb || ${heldBookingJsonSql('b')}::jsonb`;
const resourceJson = sql`json_build_object('id', r.id, 'stream_revision', r.stream_revision)`;
const c = holesOf() as Holes<{ workspace: string; since: string; fromMs: number }>;

/** A first read: the horizon, the active bookings whose occupied range ends after fromMs, every resource of the workspace. */
const loadStatement = compileOnce(sql`
  select (${logHorizon})::text as horizon,
    (select coalesce(json_agg(${bookingJson}), '[]') from bookings b
      where b.workspace = ${c.workspace}::uuid and booking_is_active(b.status, b.is_series_parent)
        and ${bookingOccupiedRangeSql('b')} && tstzrange(to_timestamp(${c.fromMs}::bigint / 1000.0), null)) as bookings,
    (select coalesce(json_agg(${resourceJson}), '[]') from resources r where r.workspace = ${c.workspace}::uuid) as resources`);

/** The rows changed since a transaction (whatever their state now), and the new horizon. */
const changesStatement = compileOnce(sql`
  select (${logHorizon})::text as horizon,
    (select coalesce(json_agg(${bookingJson}), '[]') from bookings b where b.workspace = ${c.workspace}::uuid and b.changed_in >= ${c.since}::xid8) as bookings,
    (select coalesce(json_agg(${resourceJson}), '[]') from resources r where r.workspace = ${c.workspace}::uuid and r.changed_in >= ${c.since}::xid8) as resources`);

/**
 * Runs `task` so that each caller's promise settles after a run that started after its call:
 * callers arriving during a run share the next one.
 */
function coalescing(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = () => (running = task().finally(() => (running = null)));
  return () => {
    if (!running) return start();
    next ??= running.catch(() => undefined).then(() => {
      next = null;
      return start();
    });
    return next;
  };
}

async function apply(db: Executor, followed: Followed, row: ChangesRow): Promise<void> {
  for (const b of row.bookings) {
    if (activeStatuses.includes(b.status) && !b.is_series_parent) {
      const { startMs, endMs } = occupiedMs(Number(b.start_ms), Number(b.end_ms), { bufferBeforeMinutes: b.buffer_before_minutes, bufferAfterMinutes: b.buffer_after_minutes });
      followed.bookings.set(b.id, { startMs, endMs, units: b.units, resourceId: b.resource });
    } else followed.bookings.delete(b.id);
  }
  if (row.resources.length > 0) {
    const read = await resourcesAt(db, row.resources);
    for (const { id } of row.resources) {
      const known = read.get(id);
      if (known && !known.resource.removed) followed.resources.set(id, { resource: known.resource, policyKey: known.policyKey });
      else followed.resources.delete(id);
    }
  }
  const horizon = BigInt(row.horizon);
  if (horizon > followed.since) followed.since = horizon;
  if (row.bookings.length > 0 || row.resources.length > 0) followed.view = null;
}

/**
 * The followed workspace as a search reads it: the resources in the contract's order, and the held
 * ranges by start, so that those sharing time with a window are found by a binary search and a walk
 * back no longer than the longest range.
 */
function viewOf(followed: Followed): FollowedWorkspace {
  const byStart = [...followed.bookings.values()];
  let longestMs = 0;
  for (const held of byStart) longestMs = Math.max(longestMs, held.endMs - held.startMs);
  byStart.sort((a, b) => a.startMs - b.startMs);
  const resources = [...followed.resources.values()].sort((a, b) => compareCandidates(a.resource, b.resource));
  const wholes = resources.flatMap(({ resource }) => (resource.parts ? [{ id: resource.id, parts: resource.parts }] : []));
  const heldIn = (fromMs: number, toMs: number, of?: ReadonlySet<string>) => {
    const found = new Map<string, UnitsHeld[]>();
    // The first range starting at or after toMs; every one sharing time with the window starts before it.
    let low = 0;
    let high = byStart.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (byStart[middle]!.startMs < toMs) low = middle + 1;
      else high = middle;
    }
    for (let i = low - 1; i >= 0 && byStart[i]!.startMs > fromMs - longestMs; i--) {
      const held = byStart[i]!;
      if (held.endMs <= fromMs || (of && !of.has(held.resourceId))) continue;
      const list = found.get(held.resourceId);
      if (list) list.push(held);
      else found.set(held.resourceId, [held]);
    }
    return found;
  };
  const byId = new Map(resources.map((keyed) => [keyed.resource.id, keyed]));
  return { resources, byId, sharing: sharingOf(wholes), heldIn, heldFromMs: followed.heldFromMs };
}

function follow(db: Executor, workspace: string): Followed {
  const nowMs = Date.now();
  const followed: Followed = {
    since: 0n,
    loadedAtMs: nowMs,
    heldFromMs: nowMs - heldBackMs,
    resources: new Map(),
    bookings: new Map(),
    view: null,
    refresh: () => Promise.resolve(),
  };
  let loaded = false;
  followed.refresh = coalescing(async () => {
    const statement = loaded
      ? changesStatement.fill({ workspace, since: followed.since.toString() })
      : loadStatement.fill({ workspace, fromMs: followed.heldFromMs });
    const { rows } = await db.executeQuery<ChangesRow>(statement);
    await apply(db, followed, rows[0]!);
    loaded = true;
  });
  return followed;
}

/** The workspaces this process follows on each database (the primary, a replica), the least recently searched out first. */
const followedOn = new WeakMap<Executor, BoundedCache<string, Followed>>();
const followedWorkspaces = (db: Executor) => {
  let kept = followedOn.get(db);
  if (!kept) followedOn.set(db, (kept = boundedCache<string, Followed>('followed-workspaces', { maxEntries: 32 })));
  return kept;
};

/**
 * The workspace as its rows are now: every change committed before the call is in it (a search
 * right after a create answered on any node sees that create). The first search of a workspace in
 * this process reads its resources and active bookings; every later one only the rows changed
 * since (indexes of migration 0042), usually none.
 */
export async function followedWorkspace(db: Executor, workspace: string): Promise<FollowedWorkspace> {
  const kept = followedWorkspaces(db);
  let followed = kept.get(workspace, (known) => Date.now() - known.loadedAtMs < reloadAfterMs);
  if (!followed) kept.set(workspace, (followed = follow(db, workspace)));
  await followed.refresh();
  return (followed.view ??= viewOf(followed));
}
