import type { Database } from '../../infra/db/database.js';
import { observeWebhookDelivered } from '../../infra/metrics/process-metrics.js';
import { postWebhook, type WebhookTarget } from '../../infra/webhooks/post-webhook.js';
import { claimDueDeliveries, markDelivered, recordFailedAttempt, releaseClaim } from '../../infra/webhooks/webhook-delivery-queue.js';
import { retryDelay } from './retry-delay.js';

export type WebhookSendOptions = {
  batchSize: number;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  jitterRatio: number;
};

/**
 * One round of the sender: claims the due heads of the queue (one per resource) and posts them in
 * parallel. A POST cut short by `signal` (shutdown) is not counted and goes back to the queue.
 */
export async function sendDueWebhooks(db: Database, target: WebhookTarget, options: WebhookSendOptions, signal?: AbortSignal): Promise<number> {
  const claimed = await claimDueDeliveries(db, { now: new Date(), leaseMs: 2 * options.timeoutMs, limit: options.batchSize });
  await Promise.all(
    claimed.map(async (delivery) => {
      const outcome = await postWebhook(target, { id: delivery.event_id, body: JSON.stringify(delivery.payload) }, { timeoutMs: options.timeoutMs, signal });
      if (signal?.aborted) {
        await releaseClaim(db, delivery.id);
        return;
      }
      if (outcome.delivered) {
        await markDelivered(db, delivery.id);
        observeWebhookDelivered(delivery.created_at);
        return;
      }
      const now = new Date();
      const delay = retryDelay(delivery.attempts + 1, options.retryDelaysMs, options.jitterRatio);
      await recordFailedAttempt(db, delivery.id, {
        statusCode: outcome.statusCode,
        error: outcome.error,
        retryAt: delay === null ? null : new Date(now.getTime() + delay),
        now,
      });
    }),
  );
  return claimed.length;
}
