import type { Database } from '../../infra/db/database.js';
import type { Logger } from '../../infra/logger.js';
import type { WebhookTarget } from '../../infra/webhooks/post-webhook.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';
import { sendDueWebhooks } from './send-due-webhooks.js';

/** Delivers the queued webhooks; several senders may run, the leases keep them apart. */
export function startWebhookSender(deps: { db: Database; logger: Logger }, target: WebhookTarget, options: WorkerOptions): RunningLoop {
  const sending = {
    batchSize: options.batchSize,
    timeoutMs: options.webhookTimeoutMs,
    retryDelaysMs: options.webhookRetryDelaysMs,
    jitterRatio: options.webhookJitterRatio,
  };
  return startSupervisedLoop(
    'webhook sender',
    deps.logger,
    async (stopping) => ((await sendDueWebhooks(deps.db, target, sending, stopping)) === options.batchSize ? 0 : options.pollIntervalMs),
    { backoff: options.backoff },
  );
}
