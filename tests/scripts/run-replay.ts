import { runScript, type ScriptRun } from '../support/run-script.js';

/** Runs `scripts/replay.ts` as `npm run replay` does, with the given environment added. */
export const runReplay = (args: string[], env: Record<string, string>): Promise<ScriptRun> => runScript('replay', args, { LOG_LEVEL: 'warn', ...env });
