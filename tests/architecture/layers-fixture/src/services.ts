/** The services' type, climbing to the API, the workers, a read model and a root file. */
import './api/router.js';
import './workers/worker.js';
import './projections/read-model.js';
import './create-services.js';
export type Services = string;
