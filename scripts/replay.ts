import { parseArgs } from 'node:util';
import { loadConfig } from '../src/infra/config.js';
import { createDatabase } from '../src/infra/db/database.js';
import { openLogReader } from '../src/infra/event-store/open-log-reader.js';
import { replayLog, type ReplayRequest } from '../src/workers/replay/replay-log.js';
import { ReplayUsageError } from '../src/workers/replay/replay-usage-error.js';

/**
 * npm run replay -- --after <position> --to webhook|kafka|stdout
 *
 * Sends the published events after a log position again, with their original ids, from the store
 * that keeps the log (EVENT_STORE). Progress goes to stderr, so that stdout holds only envelopes.
 */
function fail(message: string): never {
  process.stderr.write(`replay: ${message}\n`);
  process.exit(2);
}

function parseOptions(): ReplayRequest {
  let values: { after?: string; to?: string };
  try {
    ({ values } = parseArgs({ options: { after: { type: 'string' }, to: { type: 'string' } } }));
  } catch (error) {
    fail(`${(error as Error).message}; usage: npm run replay -- --after <position> --to webhook|kafka|stdout`);
  }
  if (values.after === undefined || !/^\d+$/.test(values.after) || !Number.isSafeInteger(Number(values.after))) {
    fail('--after <position> is required: a global log position (0 replays the whole log)');
  }
  if (values.to !== 'webhook' && values.to !== 'kafka' && values.to !== 'stdout') fail('--to must be webhook, kafka or stdout');
  return { after: Number(values.after), to: values.to };
}

const request = parseOptions();
const config = loadConfig();
const db = createDatabase(config.database);
const log = await openLogReader(config, db);
try {
  await replayLog(log.reader, request, { env: process.env, stdout: process.stdout, stderr: process.stderr });
} catch (error) {
  process.stderr.write(`replay: ${(error as Error).message}\n`);
  process.exitCode = error instanceof ReplayUsageError ? 2 : 1;
} finally {
  await log.close();
  await db.destroy();
}
