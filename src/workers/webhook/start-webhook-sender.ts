import { randomUUID } from 'node:crypto';
import { isDatabaseUnavailable } from '../../infra/db/database-unavailable.js';
import type { Database } from '../../infra/db/database.js';
import type { WebhookDeliveryRow } from '../../infra/db/tables/webhook-deliveries.table.js';
import type { Logger } from '../../infra/logger.js';
import type { WebhookTarget } from '../../infra/webhook/post-webhook.js';
import { claimDueDeliveries, markDeliveredAndClaimNext, releaseClaim, releaseLostClaim } from './webhook-delivery-queue.js';
import { batchCalls } from '../../infra/batch-calls.js';
import { startSupervisedLoop, type RunningLoop } from '../supervised-loop.js';
import type { WorkerOptions } from '../worker-options.js';
import { attemptDelivery, type SenderQueue, type WebhookSendOptions } from './attempt-delivery.js';

/**
 * Delivers the queued webhooks; several senders may run, the leases keep them apart.
 *
 * Each claimed head of a resource's queue opens a lane that posts it and, once it is acknowledged,
 * claims and posts that resource's next delivery at once, until the resource has nothing due: a
 * resource's deliveries leave one at a time in queue order, and never wait for a round of the
 * others. The acknowledgements of all lanes made while one is being recorded are recorded together
 * (one statement, however many resources are sending). At most `webhookLanes` lanes are open. The
 * loop itself only looks for resources without a lane: when woken (a delivery was queued, a lane
 * closed on a full sender) or every poll interval (retries falling due).
 */
export function startWebhookSender(deps: { db: Database; logger: Logger }, target: WebhookTarget, options: WorkerOptions): RunningLoop {
  const sending: WebhookSendOptions = {
    timeoutMs: options.webhookTimeoutMs,
    leaseMs: 2 * options.webhookTimeoutMs,
    retryDelaysMs: options.webhookRetryDelaysMs,
    jitterRatio: options.webhookJitterRatio,
    backoff: options.backoff,
  };
  const queue: SenderQueue = {
    db: deps.db,
    markDelivered: batchCalls((acknowledged) => markDeliveredAndClaimNext(deps.db, acknowledged, { now: new Date(), leaseMs: sending.leaseMs })),
  };
  const lanes = new Set<Promise<void>>();
  // Claims whose answer was lost with the connection: they may have committed, and are given back
  // before the next claim rather than left to wait out their lease.
  const lostClaims = new Set<string>();
  // A wake that arrives while a round runs must not be lost: that round may have looked too early.
  let wokenDuringRound = false;

  const runLane = async (first: WebhookDeliveryRow, stopping: AbortSignal) => {
    for (let delivery: WebhookDeliveryRow | undefined = first; delivery; ) {
      const attempt = await attemptDelivery(queue, target, delivery, sending, stopping);
      if (attempt.outcome !== 'delivered') return;
      delivery = attempt.next;
      // Claimed just before the stop was seen: back to the queue untried.
      if (delivery && stopping.aborted) await releaseClaim(deps.db, delivery);
      if (stopping.aborted) return;
    }
  };

  const openLane = (first: WebhookDeliveryRow, stopping: AbortSignal) => {
    const lane = runLane(first, stopping)
      .catch((error: unknown) => {
        // Its claim runs out and the delivery is sent again: at least once.
        deps.logger.error({ err: error, worker: 'webhook sender', resource: first.ordering_key }, 'webhook delivery failed; it is retried when its lease ends');
      })
      .finally(() => {
        const wasFull = lanes.size >= options.webhookLanes;
        lanes.delete(lane);
        if (wasFull) wake();
      });
    lanes.add(lane);
  };

  const loop = startSupervisedLoop(
    'webhook sender',
    deps.logger,
    async (stopping) => {
      wokenDuringRound = false;
      const free = options.webhookLanes - lanes.size;
      for (const claimId of lostClaims) {
        await releaseLostClaim(deps.db, claimId);
        lostClaims.delete(claimId);
      }
      if (free > 0) {
        const claimId = randomUUID();
        const claimed = await claimDueDeliveries(deps.db, { now: new Date(), leaseMs: sending.leaseMs, limit: free, claimId }).catch((error: unknown) => {
          if (isDatabaseUnavailable(error)) lostClaims.add(claimId);
          throw error;
        });
        for (const delivery of claimed) openLane(delivery, stopping);
      }
      return wokenDuringRound ? 0 : options.pollIntervalMs;
    },
    {
      backoff: options.backoff,
      async onStop() {
        while (lanes.size > 0) await Promise.allSettled([...lanes]);
      },
    },
  );

  function wake() {
    wokenDuringRound = true;
    loop.wake();
  }

  return { wake, stop: () => loop.stop() };
}
