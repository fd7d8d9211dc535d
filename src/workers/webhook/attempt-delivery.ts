import { randomUUID } from 'node:crypto';
import type { Executor } from '../../infra/db/database.js';
import type { WebhookDeliveryRow } from '../../infra/db/tables/webhook-deliveries.table.js';
import { observeWebhookDelivered } from '../../infra/metrics/process-metrics.js';
import { inSpanContext, startDeliverySpan } from '../../infra/telemetry/delivery-span.js';
import { postWebhook, type WebhookTarget } from '../../infra/webhook/post-webhook.js';
import { recordFailedAttempt, releaseClaim, type Acknowledged } from './webhook-delivery-queue.js';
import { retryWhileUnavailable } from '../retry-while-unavailable.js';
import type { Backoff } from '../supervised-loop.js';
import { retryDelay } from './retry-delay.js';

export type WebhookSendOptions = {
  timeoutMs: number;
  leaseMs: number;
  retryDelaysMs: readonly number[];
  jitterRatio: number;
  /** Pauses between tries of the bookkeeping while the database is unreachable. */
  backoff: Backoff;
};

/**
 * delivered: gone from the queue, with the next delivery of its key when one was due (claimed);
 * failed: retried later or dead-lettered; released: back in the queue untried.
 */
/** The queue as a sender sees it: `markDelivered` gathers the lanes' acknowledgements (markDeliveredAndClaimNext). */
export type SenderQueue = { db: Executor; markDelivered(acknowledged: Acknowledged): Promise<WebhookDeliveryRow | undefined> };

export type AttemptOutcome = { outcome: 'delivered'; next: WebhookDeliveryRow | undefined } | { outcome: 'failed' | 'released' };

/**
 * One POST of a claimed delivery and its bookkeeping. A POST cut short by `signal` (shutdown) is
 * not counted and goes back to the queue. The bookkeeping waits for a database that is unreachable
 * and is done as soon as it is back, the claim held meanwhile: the resource's later deliveries
 * wait behind it, and an acknowledged POST is not sent again (unless the outage outlasts the lease).
 */
export async function attemptDelivery(
  queue: SenderQueue,
  target: WebhookTarget,
  delivery: WebhookDeliveryRow,
  options: WebhookSendOptions,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  const span = startDeliverySpan(`webhook ${delivery.event}`, delivery.traceparent ?? undefined, 'client', { 'messaging.message.id': delivery.event_id, 'http.request.method': 'POST' });
  const outcome = await inSpanContext(span, () =>
    postWebhook(target, { id: delivery.event_id, body: JSON.stringify(delivery.payload), traceparent: span?.header }, { timeoutMs: options.timeoutMs, signal }),
  );
  span?.end(outcome.delivered ? undefined : outcome.error);
  const { db } = queue;
  if (signal.aborted) {
    await releaseClaim(db, delivery);
    return { outcome: 'released' };
  }
  const settle = <T>(statement: () => Promise<T>) => retryWhileUnavailable(statement, options.backoff, signal);
  if (outcome.delivered) {
    const nextClaimId = randomUUID();
    const next = await settle(() => queue.markDelivered({ delivery, nextClaimId }));
    observeWebhookDelivered(delivery.created_at);
    return { outcome: 'delivered', next };
  }
  const now = new Date();
  const delay = retryDelay(delivery.attempts + 1, options.retryDelaysMs, options.jitterRatio);
  await settle(() =>
    recordFailedAttempt(db, delivery, {
      statusCode: outcome.statusCode,
      error: outcome.error,
      retryAt: delay === null ? null : new Date(now.getTime() + delay),
      now,
    }),
  );
  return { outcome: 'failed' };
}
