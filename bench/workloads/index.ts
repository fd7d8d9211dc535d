import type { Workload } from '../workload.js';
import { archivedHistory } from './archived-history.js';
import { asOfSchedule } from './as-of-schedule.js';
import { bundleCreate } from './bundle-create.js';
import { calendarFeedUnchanged } from './calendar-feed.js';
import { create, createContended } from './create.js';
import { createWithRules } from './create-with-rules.js';
import { createOnPart } from './create-on-part.js';
import { davFreeBusy, davMonth, davSync } from './dav.js';
import { davInvite, davInviteSeries } from './dav-invite.js';
import { freeResources } from './free-resources.js';
import { freeResourcesSeries } from './free-resources-series.js';
import { freeResourcesIssueSize } from './free-resources-issue-size.js';
import { freeSlots } from './free-slots.js';
import { poolCreate } from './pool-create.js';
import { poolSlots } from './pool-slots.js';
import { rawAppend } from './raw-append.js';
import { readOne } from './read-one.js';
import { replicaReads } from './replica-reads.js';
import { scheduleAfresh, scheduleUnchanged } from './schedule.js';
import { statementsPerCreate } from './statements-per-create.js';
import { statementsPerInvite } from './statements-per-invite.js';
import { tracingCost } from './tracing-cost.js';
import { utilization } from './utilization.js';
import { waitlistCancel } from './waitlist-cancel.js';

/**
 * Every workload of `npm run bench`, in the order they run: add yours here (one file each).
 * raw-append stays last: emmett's driver (dumbo) sets pg's bigint parser to BigInt for the whole
 * process, which the bench's own seeding through this service's store does not expect.
 */
export const workloads: Workload[] = [create, createContended, readOne, scheduleAfresh, scheduleUnchanged, calendarFeedUnchanged, davSync, davMonth, davFreeBusy, davInvite, davInviteSeries, freeSlots, statementsPerCreate, statementsPerInvite, asOfSchedule, utilization, archivedHistory, tracingCost, createWithRules, poolCreate, poolSlots, bundleCreate, createOnPart, freeResources, freeResourcesSeries, freeResourcesIssueSize, replicaReads, waitlistCancel, rawAppend];
