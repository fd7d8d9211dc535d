/** An adapter that climbs to a read model and to a root file. */
import '../projections/read-model.js';
import '../create-services.js';
export type Adapter = string;
