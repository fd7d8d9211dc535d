import type { Config } from '../infra/config.js';
import type { KafkaSender } from './kafka/kafka-relay.js';
import type { Backoff } from './supervised-loop.js';
import { contractRetryDelaysMs } from './webhook/retry-delay.js';

/** The workers' tunables; tests shorten them so that nothing waits for minutes. */
export type WorkerOptions = {
  /** Pause of a loop that found nothing to do. */
  pollIntervalMs: number;
  /** Events per processor round, timers per round. */
  batchSize: number;
  /** Events per round of the webhook relay: a round costs a few round trips whatever its size, so a relay behind catches up in big steps. */
  relayBatchSize: number;
  /** Pause of a standby instance before it tries a processor's lock again. */
  standbyRetryMs: number;
  /** Pause after a failed round, doubling up to maxMs. */
  backoff: Backoff;
  /**
   * How long a claimed timer is kept from other workers. A move takes milliseconds and a repeated
   * firing changes nothing, so it is short: a node killed after its claim delays those timers by
   * at most this (contract §24: a deadline fires within 20 s of its time).
   */
  timerLeaseMs: number;
  timerRetryMs: number;
  /**
   * Resources whose webhooks are sent at once (one delivery in flight each): enough for every busy
   * resource to have its lane, so that none waits for another's to close.
   */
  webhookLanes: number;
  webhookTimeoutMs: number;
  webhookRetryDelaysMs: readonly number[];
  webhookJitterRatio: number;
  reconcileIntervalMs: number;
  /** The hour of the day (UTC, 0–23) of the daily retention run. */
  retentionHourUtc: number;
  /** Pause between two deletions of expired Idempotency-Key answers and idle rate-limit buckets. */
  requestRecordsCleanupIntervalMs: number;
  /** Used instead of a kafkajs producer for KAFKA_BROKERS (tests). */
  kafkaProducer?: KafkaSender;
};

export function workerOptionsFor(config: Config, overrides: Partial<WorkerOptions> = {}): WorkerOptions {
  return {
    pollIntervalMs: 200,
    batchSize: 100,
    relayBatchSize: 1_000,
    standbyRetryMs: 2_000,
    backoff: { initialMs: 500, maxMs: 30_000 },
    timerLeaseMs: 12_000,
    timerRetryMs: 10_000,
    webhookLanes: 256,
    webhookTimeoutMs: 15_000,
    webhookRetryDelaysMs: contractRetryDelaysMs,
    webhookJitterRatio: 0.1,
    reconcileIntervalMs: config.reconcileIntervalSeconds * 1_000,
    retentionHourUtc: 3,
    requestRecordsCleanupIntervalMs: 10 * 60_000,
    ...overrides,
  };
}
