import { createServices } from './create-services.js';
import { ConfigError, loadConfig, type Config } from './infra/config.js';
import { createLogger } from './infra/logger.js';
import { startServer } from './server.js';
import { startWorkers } from './workers/start-workers.js';

const logger = createLogger();

type Role = 'all' | 'api' | 'worker';

/** `--role api|worker` (or `--role=…`) splits the process; without it one process runs both. */
function roleOf(args: string[]): Role {
  const flag = args.findIndex((arg) => arg === '--role' || arg.startsWith('--role='));
  if (flag < 0) return 'all';
  const value = args[flag]!.includes('=') ? args[flag]!.slice('--role='.length) : args[flag + 1];
  if (value === 'all' || value === 'api' || value === 'worker') return value;
  throw new ConfigError(`--role must be api, worker or all, got "${value ?? ''}"`);
}

async function start(config: Config, role: Role): Promise<{ close(): Promise<void> }> {
  if (role !== 'all' && config.database.kind === 'embedded') {
    throw new ConfigError(`--role ${role} needs PostgreSQL (DB_HOST): the embedded database serves one process`);
  }
  if (role === 'worker') {
    const services = await createServices(config, logger);
    const workers = startWorkers(services);
    return {
      async close() {
        await workers.stop();
        await services.close();
      },
    };
  }
  const server = await startServer(config, logger);
  if (role === 'api') return server;
  const workers = startWorkers(server.services);
  return {
    async close() {
      await workers.stop();
      await server.close();
    },
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const role = roleOf(process.argv.slice(2));
  const running = await start(config, role);
  logger.info({ role }, 'started');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    running.close().then(
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
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    logger.fatal(`configuration error: ${error.message}`);
  } else {
    logger.fatal({ err: error }, 'failed to start');
  }
  process.exit(1);
});
