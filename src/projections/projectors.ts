import { bookingsProjector } from './bookings/bookings-projector.js';
import type { Projector } from './projector.js';
import { resourcesProjector } from './resources/resources-projector.js';
import { timersProjector } from './timers/timers-projector.js';

/** Every read model kept inline with the event log, in the order they are applied. */
export const projectors: Projector[] = [resourcesProjector, bookingsProjector, timersProjector];
