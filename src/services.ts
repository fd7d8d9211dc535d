import type { CommandContext } from './commands/command-context.js';
import type { TokenVerifier } from './infra/auth/token-verifier.js';
import type { Config } from './infra/config.js';
import type { Executor } from './infra/db/database.js';
import type { ReadRouting } from './infra/db/read-routing.js';
import type { DeviceDirectory } from './infra/device-service/device-directory.js';
import type { LogReader } from './infra/event-store/log-reader.js';
import type { Monitoring } from './infra/metrics/monitoring.js';
import type { Publishing } from './infra/publishing/publishing.js';

/** Everything the HTTP layer and the workers are built from; assembled once in main. */
export type Services = CommandContext & {
  config: Config;
  devices: DeviceDirectory;
  verifyToken: TokenVerifier;
  publishing: Publishing;
  /** History, the audit feed, asOf and the processors' lag, from the store that keeps the log. */
  logReader: LogReader;
  /** The same log read on another database (a replica's copy of it). */
  logReaderOn(db: Executor): LogReader;
  /** Where reads go: a streaming replica when one is configured and fresh enough, else the primary. */
  reads: ReadRouting;
  /** Metrics and the workers' health. */
  monitoring: Monitoring;
  /**
   * Where the health check reads: on PostgreSQL a connection of its own, so that a node whose pool
   * is queued up with requests still answers its load balancer within the check's timeout instead
   * of being taken out with every other busy node (contract §19); the one connection when embedded.
   */
  checks: Executor;
};
