/** A router: the services are allowed; the workers and the other root files are not. */
import '../services.js';
import '../workers/worker.js';
import '../open-event-store.js';
import '../server.js';
export type Router = string;
