import type { Executor } from '../../infra/db/database.js';
import type { WebhookDeliveryRow } from '../../infra/db/tables/webhook-deliveries.table.js';
import { postWebhook, type WebhookTarget } from '../../infra/webhooks/post-webhook.js';
import { markDelivered, recordFailedAttempt, releaseClaim } from '../../infra/webhooks/webhook-delivery-queue.js';
import { retryDelay } from './retry-delay.js';

export type WebhookSendOptions = {
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  jitterRatio: number;
};

/** delivered: gone from the queue; failed: retried later or dead-lettered; released: back in the queue untried. */
export type AttemptOutcome = 'delivered' | 'failed' | 'released';

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
    return 'released';
  }
  if (outcome.delivered) {
    await markDelivered(db, delivery.id);
    return 'delivered';
  }
  const now = new Date();
  const delay = retryDelay(delivery.attempts + 1, options.retryDelaysMs, options.jitterRatio);
  await recordFailedAttempt(db, delivery.id, {
    statusCode: outcome.statusCode,
    error: outcome.error,
    retryAt: delay === null ? null : new Date(now.getTime() + delay),
    now,
  });
  return 'failed';
}
