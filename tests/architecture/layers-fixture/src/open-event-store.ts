/** The store's wiring, climbing to a command, the API and its callers. */
import './commands/command.js';
import './api/router.js';
import './create-services.js';
export type OpenEventStore = string;
