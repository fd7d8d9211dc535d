/** The services' making, climbing to the workers, the API and the server. */
import './workers/worker.js';
import './api/router.js';
import './server.js';
export type CreateServices = string;
