import type { Workload } from '../workload.js';
import { asOfSchedule } from './as-of-schedule.js';
import { create, createContended } from './create.js';
import { freeSlots } from './free-slots.js';
import { rawAppend } from './raw-append.js';
import { readOne } from './read-one.js';
import { scheduleAfresh, scheduleUnchanged } from './schedule.js';
import { statementsPerCreate } from './statements-per-create.js';
import { utilization } from './utilization.js';

/** Every workload of `npm run bench`, in the order they run: add yours here (one file each). */
export const workloads: Workload[] = [create, createContended, readOne, scheduleAfresh, scheduleUnchanged, freeSlots, statementsPerCreate, rawAppend, asOfSchedule, utilization];
