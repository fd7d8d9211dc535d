import type { Executor } from '../../infra/db/database.js';
import type { WebhookDeliveryRow } from '../../infra/db/tables/webhook-deliveries.table.js';
import { observeWebhookDelivered } from '../../infra/metrics/process-metrics.js';
import { postWebhook, type WebhookTarget } from '../../infra/webhooks/post-webhook.js';
import { markDeliveredAndClaimNext, recordFailedAttempt, releaseClaim } from '../../infra/webhooks/webhook-delivery-queue.js';
import { retryDelay } from './retry-delay.js';

export type WebhookSendOptions = {
  timeoutMs: number;
  leaseMs: number;
  retryDelaysMs: readonly number[];
  jitterRatio: number;
};

/**
 * delivered: gone from the queue, with the next delivery of its key when one was due (claimed);
 * failed: retried later or dead-lettered; released: back in the queue untried.
 */
export type AttemptOutcome = { outcome: 'delivered'; next: WebhookDeliveryRow | undefined } | { outcome: 'failed' | 'released' };

/**
 * One POST of a claimed delivery and its bookkeeping. A POST cut short by `signal` (shutdown) is
 * not counted and goes back to the queue.
 */
export async function attemptDelivery(
  db: Executor,
  target: WebhookTarget,
  delivery: WebhookDeliveryRow,
  options: WebhookSendOptions,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  const outcome = await postWebhook(target, { id: delivery.event_id, body: JSON.stringify(delivery.payload) }, { timeoutMs: options.timeoutMs, signal });
  if (signal.aborted) {
    await releaseClaim(db, delivery.id);
    return { outcome: 'released' };
  }
  if (outcome.delivered) {
    const next = await markDeliveredAndClaimNext(db, delivery, { now: new Date(), leaseMs: options.leaseMs });
    observeWebhookDelivered(delivery.created_at);
    return { outcome: 'delivered', next };
  }
  const now = new Date();
  const delay = retryDelay(delivery.attempts + 1, options.retryDelaysMs, options.jitterRatio);
  await recordFailedAttempt(db, delivery.id, {
    statusCode: outcome.statusCode,
    error: outcome.error,
    retryAt: delay === null ? null : new Date(now.getTime() + delay),
    now,
  });
  return { outcome: 'failed' };
}
