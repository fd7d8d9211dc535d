import { blackoutsProjector } from './blackout/blackouts-projector.js';
import { bookingsProjector } from './booking/bookings-projector.js';
import { calendarEventsProjector } from './calendar/calendar-events-projector.js';
import type { Projector } from './projector.js';
import { recordsProjector, repeatableRecordsProjector } from './record/records-projector.js';
import { quotasProjector } from './quota/quotas-projector.js';
import { approvalDelegationsProjector } from './approval/approval-delegations-projector.js';
import { waitlistProjector } from './waitlist/waitlist-projector.js';
import { resourcesProjector } from './resource/resources-projector.js';
import { timersProjector } from './timer/timers-projector.js';
import { utilizationProjector } from './utilization/utilization-projector.js';

/**
 * Every read model kept inline with the event log, in the order they are applied; the store is
 * created with them (src/open-event-store.ts) and a rebuild replays the log through them.
 */
export const projectors: readonly Projector[] = [resourcesProjector, bookingsProjector, timersProjector, recordsProjector, utilizationProjector, quotasProjector, blackoutsProjector, approvalDelegationsProjector, waitlistProjector, calendarEventsProjector];

/**
 * The projectors that follow the log from a checkpointed runner with PROJECTIONS=async on the
 * PostgreSQL store: all but those whose rules need the append's transaction.
 */
export const followingProjectors: readonly Projector[] = projectors.filter((p) => !p.inAppend);

/**
 * The projectors that follow `$all` when EventStoreDB keeps the log: every one, the records one in
 * its repeatable form (a record write has already written its row in its own PostgreSQL transaction).
 */
export const eventStoreDbFollowingProjectors: readonly Projector[] = projectors.map((p) => (p === recordsProjector ? repeatableRecordsProjector : p));
