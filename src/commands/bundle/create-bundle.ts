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
import { findCreateState, type QuotaBoundState } from '../booking/create-booking.js';
import { quotaGuardOfBooking } from '../booking/quota-guard-of-booking.js';
import { quotaOrOverlapMeansRetry } from '../booking/quota-hold.js';
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

/** Why a store without transactions over several streams refuses bundles (contract §22, README). */
export const bundlesNeedOneTransaction = 'bundles need EVENT_STORE=postgres: EventStoreDB has no transaction over several streams';

/**
 * Books every item of a bundle in one decision over their resources' streams (handleCommandOnStreams):
 * each item judged by the create's verdict on its resource's state, all the bookings appended in
 * one transaction, each to its stream at the revision the decision read. A quota that applies is
 * held in that transaction, before the appends, for each item (the same booker's lock).
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
  let found: (FoundRegistration | null)[] = [];
  const { events } = await handleCommandOnStreams<QuotaBoundState[], BookingCreated>(ctx, {
    needsOneTransaction: bundlesNeedOneTransaction,
    async streamIds(db) {
      found = await Promise.all(input.items.map((item) => findRegisteredResourceId(db, { workspace, resourceType: item.resourceType, resourceId: item.resourceId }, { fresh: true })));
      return found.flatMap((f) => (f ? [resourceStreamId(f.id)] : []));
    },
    load: async (db) => Promise.all(found.map(async (f) => (await findCreateState(db, f, booker, command, ctx.now())).state)),
    decide: (states) => decideCreateBundle(command, states, actor, ctx.now()).map((event) => ({ streamId: resourceStreamId(event.data.booking.bookableResourceId), events: [event] })),
    async inTransaction(trx, states) {
      for (const [i, state] of states.entries()) await holds[i]!(state.resource, state.quotas)?.(trx, [], async () => undefined);
    },
    onConstraintViolation: quotaOrOverlapMeansRetry,
  });
  return { id: command.id, bookings: events.map((e) => (e.data as BookingCreated['data']).booking).sort((a, b) => (a.id < b.id ? -1 : 1)) };
}
