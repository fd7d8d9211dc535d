/** A read model that climbs to a command and to the services. */
import '../commands/command.js';
import '../services.js';
export type ReadModel = string;
