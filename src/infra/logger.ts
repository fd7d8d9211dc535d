import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { traceFields } from './telemetry/trace-fields.js';

export type { Logger };

/**
 * JSON lines, except for a person at a terminal in development: `LOG_FORMAT=pretty|json` decides,
 * unset means pretty when stdout is a terminal and APP_ENV is not production.
 */
export function prettyLogs(env: Record<string, string | undefined> = process.env, terminal = process.stdout.isTTY === true): boolean {
  if (env.LOG_FORMAT === 'pretty') return true;
  if (env.LOG_FORMAT === 'json') return false;
  const production = env.APP_ENV === 'production' || (!env.APP_ENV && !!env.PLATFORM_AUTH_ENDPOINT);
  return terminal && !production;
}

/** Logs to stdout unless given another `destination` (a script whose stdout is its answer logs to stderr). */
export function createLogger(level = process.env.LOG_LEVEL || 'info', readable = prettyLogs(), destination?: NodeJS.WritableStream): Logger {
  // The pid tells the processes of a multi-process start apart.
  const options = { level, base: { pid: process.pid, service: 'workspace-booking' }, mixin: traceFields };
  if (!readable) return destination ? pino(options, destination) : pino(options);
  // Synchronous: lines written just before an exit are not lost.
  return pino(options, pretty({ sync: true, ignore: 'hostname,service', translateTime: 'SYS:HH:MM:ss.l', ...(destination ? { destination } : {}) }));
}
