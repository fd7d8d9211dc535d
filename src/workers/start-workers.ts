import type { Services } from '../services.js';
import { ConfigError } from '../infra/config.js';
import { createKafkaProducer } from '../infra/kafka/create-kafka-producer.js';
import { laterDecisions } from './calendar/later-decisions.js';
import { deviceDeletions } from './device/device-deletions.js';
import { startReconciliation } from './device/start-reconciliation.js';
import { startCommitListener } from './commit-listener.js';
import { createExclusiveLock } from './create-exclusive-lock.js';
import { kafkaRelay, kafkaRelayCheckpoint } from './kafka/kafka-relay.js';
import { placeCheckpoint } from './process-batch.js';
import type { Processor } from './processor.js';
import { startRequestRecordsCleanup } from './request-records/start-request-records-cleanup.js';
import { startRetentionLoop } from './retention/start-retention-loop.js';
import { startProcessor } from './start-processor.js';
import type { RunningLoop } from './supervised-loop.js';
import { startTimerLoop } from './timer/start-timer-loop.js';
import { startWebhookSender } from './webhook/start-webhook-sender.js';
import { webhookRelay } from './webhook/webhook-relay.js';
import { waitlistPromotions } from './waitlist/waitlist-promotions.js';
import { workerOptionsFor, type WorkerOptions } from './worker-options.js';

export type RunningWorkers = {
  /** Cuts every pause short (tests, after moving the clock). */
  wake(): void;
  /** Lets each round in flight finish, frees the locks and disconnects. */
  stop(): Promise<void>;
};

/**
 * Starts the process manager and the event delivery: timers, device deletions, reconciliation,
 * and the webhook and Kafka relays when configured. Every round reads the clock through
 * `services.now`, so a test may replace it.
 */
/**
 * Places the checkpoints of the relays this configuration enables that have none yet (at the end
 * of the log: history is sent only on request), before the process takes a write. Every process
 * with the configuration does so, api-only ones too: a write answered before the relay's first
 * round would otherwise fall before the place it starts from, and never be sent.
 */
export async function placeRelayCheckpoints(services: Services): Promise<void> {
  const { webhook, kafka } = services.config;
  if (webhook.endpoint && webhook.secret) await placeCheckpoint(services, webhookRelay);
  if (kafka.brokers.length > 0) await placeCheckpoint(services, kafkaRelayCheckpoint);
}

export function startWorkers(services: Services, overrides: Partial<WorkerOptions> = {}): RunningWorkers {
  const { config, logger } = services;
  const options = workerOptionsFor(config, overrides);
  const { endpoint, secret } = config.webhook;
  if (endpoint && !secret) throw new ConfigError('WEBHOOK_ENDPOINT is set but WEBHOOK_SECRET is not: webhooks are always signed');

  const processorOptions = { batchSize: options.batchSize, pollIntervalMs: options.pollIntervalMs, standbyRetryMs: options.standbyRetryMs, backoff: options.backoff };
  const followers: RunningLoop[] = [];
  const follow = (processor: Processor, batchSize = processorOptions.batchSize) => {
    const loop = startProcessor({ ...services, lock: createExclusiveLock(services, processor.name) }, processor, { ...processorOptions, batchSize });
    services.monitoring.workers.track(processor.name, loop.isActive);
    followers.push(loop);
    return loop;
  };

  const loops: RunningLoop[] = [startTimerLoop(services, options), follow(deviceDeletions(services)), follow(waitlistPromotions(services)), follow(laterDecisions(services)), startReconciliation(services, options), startRetentionLoop(services, options), startRequestRecordsCleanup(services, options)];
  const sender = endpoint && secret ? startWebhookSender(services, { endpoint, secret }, options) : undefined;
  if (sender) loops.push(follow(webhookRelay, options.relayBatchSize), sender);
  const producer = config.kafka.brokers.length > 0 ? (options.kafkaProducer ?? createKafkaProducer(config.kafka.brokers, logger)) : undefined;
  if (producer) loops.push(follow(kafkaRelay(producer, config.kafka.topic)));
  const listener = startCommitListener(
    config.database,
    logger,
    { events_appended: followers.map((loop) => () => loop.wake()), webhook_deliveries_queued: sender ? [() => sender.wake()] : [] },
    options.backoff,
  );

  logger.info({ webhooks: Boolean(endpoint), kafka: Boolean(producer) }, 'workers started');
  return {
    wake: () => loops.forEach((loop) => loop.wake()),
    async stop() {
      await listener.stop();
      await Promise.all(loops.map((loop) => loop.stop()));
      await producer?.disconnect().catch((error: unknown) => logger.warn({ err: error }, 'disconnecting from Kafka failed'));
    },
  };
}
