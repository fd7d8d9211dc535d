/** A worker: the services are allowed; the API and the other root files (the store wiring too) are not. */
import '../services.js';
import '../open-event-store.js';
import '../api/router.js';
import '../create-services.js';
export type Worker = string;
