/** A worker: the services and the store wiring are allowed; the API and the other root files are not. */
import '../services.js';
import '../open-event-store.js';
import '../api/router.js';
import '../create-services.js';
export type Worker = string;
