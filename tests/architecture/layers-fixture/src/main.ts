/** The entry point: it may import everything. */
import './server.js';
import './workers/worker.js';
export type Main = string;
