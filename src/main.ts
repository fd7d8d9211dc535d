import cluster from 'node:cluster';
import os from 'node:os';
import { ConfigError, loadConfig, type Config } from './infra/config.js';
import { createLogger, type Logger } from './infra/logger.js';
import { startTracing, tracingConfigured } from './infra/telemetry/start-tracing.js';

const startedAt = Date.now();
const logger = createLogger();

type Role = 'all' | 'api' | 'worker';
/** How a process stops: `noticeMs` as in DrainOptions (0: stop accepting at once), `deadline` for requests in flight. */
type Stop = { noticeMs: number; deadline: number };
type Running = { port?: number; stop(how: Stop): Promise<void> };

/**
 * After SIGTERM, new connections are still accepted this long (within the grace) while health
 * answers 503: a load balancer checking every 500 ms with `fall 1` takes the node out meanwhile.
 */
const loadBalancerNoticeMs = 1_500;
/** Beyond the grace, the time a process may take to stop its workers and disconnect before it is forced out. */
const closeMarginMs = 5_000;

/** Set by the primary on each process it forks: the role that process plays. */
const clusterRoleVariable = 'BOOKING_CLUSTER_ROLE';

/** `--role api|worker` (or `--role=…`) splits the process; without it one process runs both. */
function roleOf(args: string[]): Role {
  const flag = args.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (flag < 0) return 'all';
  const value = args[flag]!.includes('=') ? args[flag]!.slice('--role='.length) : args[flag + 1];
  if (value === 'all' || value === 'api' || value === 'worker') return value;
  throw new ConfigError(`--role must be api, worker or all, got "${value ?? ''}"`);
}

/** WEB_CONCURRENCY: how many processes serve HTTP on PostgreSQL; default one per processor. */
function webConcurrency(env: Record<string, string | undefined>): number {
  const raw = env.WEB_CONCURRENCY;
  if (raw === undefined || raw === '') return os.availableParallelism();
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`WEB_CONCURRENCY must be an integer ≥ 1, got "${raw}"`);
  return value;
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Logs that a step is still running every few seconds, so that a slow start is never silent. */
async function step<T>(log: Logger, what: string, work: () => Promise<T>): Promise<T> {
  const since = Date.now();
  const ticker = setInterval(() => log.info(`still ${what} (${seconds(since)})`), 5_000);
  try {
    return await work();
  } finally {
    clearInterval(ticker);
  }
}

function readyLine(port: number): string {
  const base = `http://localhost:${port}`;
  return `ready on ${base} in ${seconds(startedAt)} — docs: ${base}/booking/docs, ${base}/device/docs, ${base}/catalog/docs, ${base}/publish/docs (index: ${base}/)`;
}

async function startRole(config: Config, role: Role): Promise<Running> {
  if (role !== 'all' && config.database.kind === 'embedded') {
    throw new ConfigError(`--role ${role} needs PostgreSQL (DB_HOST): the embedded database serves one process`);
  }
  // The code loads while a first start creates the embedded database on another thread.
  const created =
    config.database.kind === 'embedded'
      ? import('./infra/db/create-embedded-data-dir.js').then(async ({ createEmbeddedDataDir }) => {
          const since = Date.now();
          const dataDir = config.database.kind === 'embedded' ? config.database.dataDir : '';
          const creating = createEmbeddedDataDir(dataDir);
          if (await Promise.race([creating, Promise.resolve('pending')]) === 'pending') {
            logger.info(`first start: creating the embedded database in ${dataDir} (once)`);
            const how = await creating;
            logger.info(how === 'template' ? `embedded database created from the template of npm install in ${seconds(since)}` : `embedded database created by initdb in ${seconds(since)} (npm install makes a template that saves most of it)`);
          }
        })
      : Promise.resolve();
  const [{ createServices }, { startServer }, { startWorkers, placeRelayCheckpoints }] = await Promise.all([
    import('./create-services.js'),
    import('./server.js'),
    import('./workers/start-workers.js'),
    created,
  ]);
  const connecting = `connecting to the ${config.database.kind === 'embedded' ? 'embedded database' : 'database'} and migrating`;
  if (role === 'worker') {
    const services = await step(logger, connecting, () => createServices(config, logger));
    await placeRelayCheckpoints(services);
    const workers = startWorkers(services);
    return {
      async stop() {
        await workers.stop();
        await services.close();
      },
    };
  }
  const server = await step(logger, connecting, () => startServer(config, logger, undefined, placeRelayCheckpoints));
  const workers = role === 'all' ? startWorkers(server.services) : undefined;
  return {
    port: server.port,
    async stop(how) {
      // The workers stop at once, freeing their locks for another node, while the requests in flight finish.
      const { cut } = await server.drain({ ...how, alongside: workers?.stop() });
      if (cut > 0) logger.warn({ cut }, 'connections cut at the end of the grace');
    },
  };
}

/**
 * Starts the role, traced when an OTLP endpoint is configured: the SDK starts before the service's
 * modules load, and the spans still buffered are sent when the process stops.
 */
async function start(config: Config, role: Role): Promise<Running> {
  const tracing = tracingConfigured(process.env) ? await startTracing() : null;
  const running = await startRole(config, role);
  if (!tracing) return running;
  return {
    port: running.port,
    async stop(how) {
      await running.stop(how);
      await tracing.shutdown();
    },
  };
}

/**
 * Stops `running` on the first SIGTERM or SIGINT (or when the primary goes away), then exits 0.
 * SIGTERM drains (contract §19): health answers 503 at once, new connections are accepted for
 * `loadBalancerNoticeMs` more, requests in flight finish within SHUTDOWN_GRACE_SECONDS, the workers
 * hand their processors over. SIGINT (a terminal's Ctrl-C) skips the notice.
 */
function stopOnSignals(running: Running, config: Config): void {
  let stopping = false;
  const graceMs = config.shutdownGraceSeconds * 1_000;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + graceMs;
    const noticeMs = signal === 'SIGTERM' ? Math.min(loadBalancerNoticeMs, graceMs) : 0;
    logger.info({ signal, graceSeconds: config.shutdownGraceSeconds }, signal === 'SIGTERM' ? 'shutting down: draining' : 'shutting down');
    const force = setTimeout(() => process.exit(1), graceMs + closeMarginMs).unref();
    running.stop({ noticeMs, deadline }).then(
      () => {
        clearTimeout(force);
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  if (cluster.isWorker) process.on('disconnect', () => stop('primary gone'));
}

/**
 * The primary of a multi-process start: forks `count` HTTP processes sharing the port. With the
 * role `all` every one of them also runs the workers: each processor's advisory lock keeps one
 * active across the node (and across nodes), the others stand by to take over, and every process
 * answers health with the workers' part (contract §19). A process that dies is replaced; SIGTERM
 * or SIGINT stops them all.
 */
function supervise(role: Role, count: number, config: Config): void {
  const roles: Role[] = Array.from({ length: count }, () => role);
  const processes = new Map<number, number>();
  const listening = new Set<number>();
  let stopping = false;
  let exitCode = 0;
  const fork = (slot: number) => {
    const child = cluster.fork({ [clusterRoleVariable]: roles[slot] });
    processes.set(child.id, slot);
    child.once('listening', (address) => {
      listening.add(slot);
      if (listening.size === count && !stopping) logger.info(readyLine(address.port));
    });
    child.once('exit', (code, signal) => {
      processes.delete(child.id);
      if (stopping) {
        if (processes.size === 0) process.exit(exitCode);
        return;
      }
      if (!listening.has(slot)) {
        // It never came up (configuration, database unreachable past DB_CONNECT_TIMEOUT_SECONDS): a
        // restart would fail the same way, so the whole service stops with its status.
        logger.fatal({ code, signal, slot }, 'an HTTP process failed to start; stopping every process');
        stop('SIGTERM', code || 1);
        return;
      }
      logger.error({ code, signal, slot }, 'an HTTP process exited; starting another');
      listening.delete(slot);
      setTimeout(() => fork(slot), 1_000).unref();
    });
  };
  logger.info(`starting ${count} HTTP processes (WEB_CONCURRENCY)${role === 'all' ? '; each also runs the workers, one active per processor' : ''}`);
  roles.forEach((_, slot) => fork(slot));
  const stop = (signal: NodeJS.Signals, status = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = status;
    logger.info({ signal }, 'shutting down every process');
    for (const child of Object.values(cluster.workers ?? {})) child?.process.kill('SIGTERM');
    if (processes.size === 0) process.exit(exitCode);
    // Each process drains within the grace and forces itself out after its margin; this is the last resort.
    setTimeout(() => {
      for (const child of Object.values(cluster.workers ?? {})) child?.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownGraceSeconds * 1_000 + 2 * closeMarginMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isWorker) {
    const running = await start(config, (process.env[clusterRoleVariable] as Role | undefined) ?? 'api');
    stopOnSignals(running, config);
    return;
  }
  const role = roleOf(process.argv.slice(2));
  if (config.appEnv === 'production' && config.database.kind === 'embedded') {
    logger.warn('production mode on the embedded database (PGlite): one process, no failover, no backups; set DB_HOST to use PostgreSQL');
  }
  if (role !== 'worker') {
    const count = webConcurrency(process.env);
    if (config.database.kind === 'postgres' && count > 1) return supervise(role, count, config);
    if (config.database.kind === 'embedded') logger.info('embedded database: one process serves HTTP and runs the workers (WEB_CONCURRENCY applies to PostgreSQL)');
  }
  const running = await start(config, role);
  logger.info({ role }, role === 'worker' ? `workers started in ${seconds(startedAt)}` : readyLine(running.port ?? config.port));
  stopOnSignals(running, config);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    logger.fatal(`configuration error: ${error.message}`);
  } else {
    logger.fatal({ err: error }, 'failed to start');
  }
  process.exit(1);
});
