import type pg from 'pg';
import type { DatabaseConfig } from '../infra/config.js';
import { createSessionClient } from '../infra/db/create-session-client.js';
import type { Logger } from '../infra/logger.js';
import type { Backoff } from './supervised-loop.js';

/** Notified on commit by the triggers of migration 0009. */
export type CommitChannel = 'events_appended' | 'webhook_deliveries_queued';

export type CommitListener = { stop(): Promise<void> };

/** Its connection's application_name, for operators (and tests) looking at pg_stat_activity. */
export const commitListenerName = 'workspace-booking commit listener';

/**
 * Wakes the loops of a channel whenever a transaction that wrote to its table commits, from any
 * instance: followers of the log need not sleep their poll interval while work is due. A
 * connection of its own (LISTEN holds it) that is opened again with backoff whenever it is lost;
 * every loop is woken after each (re)connection, since notifications sent meanwhile are gone. The
 * loops keep polling, so a lost notification costs one poll interval at most. The embedded
 * database serves one process: its loops poll.
 */
export function startCommitListener(
  database: DatabaseConfig,
  logger: Logger,
  wakeups: Partial<Record<CommitChannel, (() => void)[]>>,
  backoff: Backoff,
): CommitListener {
  if (database.kind !== 'postgres') return { stop: async () => undefined };
  const channels = Object.keys(wakeups) as CommitChannel[];
  const wakeAll = () => channels.forEach((channel) => wakeups[channel]?.forEach((wake) => wake()));
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const reconnectLater = (error: unknown) => {
    if (stopped || retry) return;
    failures += 1;
    const retryInMs = Math.min(backoff.maxMs, backoff.initialMs * 2 ** (failures - 1));
    logger.warn({ err: error, failures, retryInMs }, 'listening for commits failed; the workers poll until it is back');
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, retryInMs);
  };

  const connect = async () => {
    let next: pg.Client | undefined;
    try {
      next = await createSessionClient(database, {
        applicationName: commitListenerName,
        onLost: (lost, error) => {
          if (client === lost) client = undefined;
          reconnectLater(error);
        },
      });
      next.on('notification', (message) => wakeups[message.channel as CommitChannel]?.forEach((wake) => wake()));
      for (const channel of channels) await next.query(`listen ${channel}`);
    } catch (error) {
      void next?.end().catch(() => undefined);
      reconnectLater(error);
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    if (failures > 0) logger.info('listening for commits again');
    failures = 0;
    wakeAll();
  };

  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
