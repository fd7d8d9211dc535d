import { openEventStore } from '../src/open-event-store.js';
import { runArchiveScript } from '../src/workers/retention/run-archive-script.js';

/**
 * npm run archive -- --before <instant>: archives now every booking that ended before the instant
 * (contract §13, retention), progress on stderr. Idempotent; after a crash, run it again.
 */
process.exitCode = await runArchiveScript(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr, openStore: openEventStore });
