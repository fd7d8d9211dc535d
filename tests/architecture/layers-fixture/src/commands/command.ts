/** A command that climbs to the workers and to a root file. */
import '../workers/worker.js';
import '../open-event-store.js';
export type Command = string;
