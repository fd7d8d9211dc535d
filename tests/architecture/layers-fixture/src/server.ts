/** The HTTP server, climbing to the workers and to the entry point. */
import './workers/worker.js';
import './main.js';
export type Server = string;
