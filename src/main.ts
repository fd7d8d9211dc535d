import { ConfigError, loadConfig } from './infra/config.js';
import { createLogger } from './infra/logger.js';
import { startServer } from './server.js';

const logger = createLogger();

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config, logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    server.close().then(
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
