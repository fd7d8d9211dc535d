import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import { workspaceScope } from '../../domain/access/workspace-scope.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingCreated } from '../../domain/booking/booking-events.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { assertBundleItems, decideCreateBundle, type BundleItem, type CreateBundle } from '../../domain/bundle/decide-create-bundle.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import { findRegisteredResourceId, type FoundRegistration } from '../../projections/resource/find-registered-resource-id.js';
import { findApproverDelegations, quotaBoundState, unregisteredCreateState, type QuotaBoundState } from '../placement/placement-state.js';
import { findBookingCreateStatesOn } from '../../projections/booking/create-states-query.js';
import type { Executor } from '../../infra/db/database.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { quotaGuardOfBooking } from '../placement/quota-guard-of-booking.js';
import { quotaOrOverlapMeansRetry } from '../placement/quota-hold.js';
import type { CommandContext } from '../command-context.js';
import { handleCommandOnStreams } from '../handle-command.js';

export type CreateBundleInput = {
  title: string;
  startTime: string;
  endTime: string;
  items: (BundleItem & { resourceType: ResourceType })[];
  bookerEmail?: string;
  bookerProfileId?: string;
  /** LV1 only: book in this workspace instead of the token's. */
  workspace?: string;
};

export type Bundle = { id: string; bookings: Booking[] };

/** Why a store without transactions over several streams refuses bundles (contract §22, docs/booking.md). */
export const bundlesNeedOneTransaction = 'bundles need EVENT_STORE=postgres: EventStoreDB has no transaction over several streams';

/**
 * Every item's create state with its stream's revision, in one statement (one snapshot), as a
 * single create reads its own; an unregistered item's is the state without resource.
 */
async function findBundleCreateStates(
  ctx: CommandContext,
  db: Executor,
  found: readonly (FoundRegistration | null)[],
  booker: string,
  { startTime, endTime }: CreateBundle,
): Promise<{ revisions: Map<string, number | null>; state: QuotaBoundState[] }> {
  const registered = found.flatMap((f) => (f ? [f] : []));
  const reads = await findBookingCreateStatesOn(
    db,
    registered.map((f) => ({ streamId: resourceStreamId(f.id), resourceId: f.id, booker, from: startTime, to: endTime })),
  );
  const revisions = new Map(registered.map((f, i) => [resourceStreamId(f.id), reads[i]!.streamRevision]));
  const states = await Promise.all(
    reads.map(async ({ streamRevision, ...read }) => quotaBoundState(read, startTime, await findApproverDelegations(db, read.resource, ctx.now()))),
  );
  let next = 0;
  return { revisions, state: found.map((f) => (f ? states[next++]! : unregisteredCreateState)) };
}

/**
 * Books every item of a bundle in one decision over their resources' streams (handleCommandOnStreams):
 * each item judged by the create's verdict on its resource's state, all the bookings appended
 * together, each to its stream at the revision the decision read: in one statement with their
 * projections, or, when a quota applies, in one transaction that holds it before the appends for
 * each item (the same booker's lock).
 */
export async function createBundle(ctx: CommandContext, actor: Principal, input: CreateBundleInput): Promise<Bundle> {
  assertBundleItems(input.items);
  const command: CreateBundle = {
    id: randomUUID(),
    // Ascending in the items' order: the bundle's bookings are read back in it (findBundleBookings).
    bookingIds: input.items.map(() => randomUUID()).sort(),
    items: input.items,
    title: input.title,
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    bookerEmail: input.bookerEmail,
    bookerProfileId: input.bookerProfileId,
  };
  const workspace = workspaceScope(actor, input.workspace, '/body/workspace');
  const booker = namedBookerId(command, actor);
  const holds = input.items.map(() => quotaGuardOfBooking(workspace, booker, command.startTime));
  const registrationsOf = (db: Executor, fresh: boolean) =>
    Promise.all(input.items.map((item) => findRegisteredResourceId(db, { workspace, resourceType: item.resourceType, resourceId: item.resourceId }, { fresh })));
  // Registrations from memory first, as a single create's; a remembered one whose resource is gone since sends the whole decision back to the table.
  const attempt = async (fresh: boolean): Promise<RecordedEvent[] | null> => {
    let found: (FoundRegistration | null)[] = [];
    let removedSince = false;
    const { events } = await handleCommandOnStreams<QuotaBoundState[], BookingCreated>(ctx, {
      needsOneTransaction: bundlesNeedOneTransaction,
      async streamIds(db) {
        found = await registrationsOf(db, fresh);
        return found.flatMap((f) => (f ? [resourceStreamId(f.id)] : []));
      },
      loadWithRevisions: (db) => findBundleCreateStates(ctx, db, found, booker, command),
      decide: (states) => {
        removedSince = found.some((f, i) => f?.remembered && !states[i]!.resource);
        if (removedSince) return [];
        return decideCreateBundle(command, states, actor, ctx.now()).map((event) => ({ streamId: resourceStreamId(event.data.booking.bookableResourceId), events: [event] }));
      },
      inTransactionFor(states) {
        const works = states.flatMap((state, i) => holds[i]!(state.resource, state.quotas) ?? []);
        if (works.length === 0) return undefined;
        return async (trx) => {
          for (const work of works) await work(trx, [], async () => undefined);
        };
      },
      onConstraintViolation: quotaOrOverlapMeansRetry,
    });
    return removedSince ? null : events;
  };
  const events = (await attempt(false)) ?? (await attempt(true))!;
  return { id: command.id, bookings: events.map((e) => (e.data as BookingCreated['data']).booking).sort((a, b) => (a.id < b.id ? -1 : 1)) };
}
