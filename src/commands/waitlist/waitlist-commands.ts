import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import { decideJoinWaitlist, type JoinWaitlist } from '../../domain/waitlist/decide-join-waitlist.js';
import { decideLeaveWaitlist } from '../../domain/waitlist/decide-leave-waitlist.js';
import { answeredEntry, positionBehind, type PositionedEntry } from '../../domain/waitlist/waitlist-entry.js';
import { findRegisteredResourceId } from '../../projections/resource/find-registered-resource-id.js';
import { findWaitlistRecord, waitingEntriesOf } from '../../projections/waitlist/waitlist-queries.js';
import { findCreateState } from '../placement/placement-state.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

export type JoinWaitlistInput = {
  resourceType: ResourceType;
  resourceId: string;
  title: string;
  startTime: string;
  endTime: string;
  units?: number;
  bookerEmail?: string;
  bookerProfileId?: string;
  workspace?: string;
};

/** Joins the waitlist of the registered resource, on its stream, when the same create would be refused by its conflicts alone (contract §23). */
export async function joinWaitlist(ctx: CommandContext, actor: Principal, input: JoinWaitlistInput): Promise<PositionedEntry> {
  const command: JoinWaitlist = {
    id: randomUUID(),
    title: input.title,
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    units: input.units ?? 1,
    bookerEmail: input.bookerEmail,
    bookerProfileId: input.bookerProfileId,
  };
  const key = { workspace: workspaceScope(actor, input.workspace, '/body/workspace'), resourceType: input.resourceType, resourceId: input.resourceId };
  const found = await findRegisteredResourceId(ctx.db, key, { fresh: true });
  const booker = namedBookerId(command, actor);
  const { state, events } = await handleCommand(ctx, found && resourceStreamId(found.id), {
    loadWithRevision: async (db) => {
      const { revision, state } = await findCreateState(db, found, booker, command, ctx.now());
      return { revision, state: { ...state, waiting: found ? await waitingEntriesOf(db, found.id) : [] } };
    },
    decide: (state) => [decideJoinWaitlist(command, state, actor, ctx.now())],
  });
  const { entry } = events[0]!.data;
  return { ...answeredEntry(entry), position: positionBehind(entry, state.waiting) };
}

/** Leaves the waitlist: the entry closes `cancelled`, on its resource's stream (none known: the decision's 404). */
export async function leaveWaitlist(ctx: CommandContext, actor: Principal, id: string): Promise<PositionedEntry> {
  const known = await findWaitlistRecord(ctx.db, id);
  const { events } = await handleCommand(ctx, known && resourceStreamId(known.bookableResourceId), {
    load: (db) => findWaitlistRecord(db, id),
    decide: (entry) => [decideLeaveWaitlist(entry, actor, ctx.now())],
  });
  return { ...answeredEntry(events[0]!.data.entry), position: null };
}
